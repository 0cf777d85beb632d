import { describe, expect, it } from 'vitest';
import { oneStatement, renumbered } from './writer';

describe('oneStatement', () => {
  it('renumbers parameters, and only parameters: not in quoted names, strings or words', () => {
    expect(renumbered(`INSERT INTO "a-$1"."t" (x, y) VALUES ($1, $2::jsonb) -- 'it''s $1' b$1`, 2)).toBe(
      `INSERT INTO "a-$1"."t" (x, y) VALUES ($3, $4::jsonb) -- 'it''s $1' b$1`,
    );
    expect(renumbered('SELECT $10, $1', 5)).toBe('SELECT $15, $6');
  });

  it('makes writes on different tables one WITH statement, and refuses a table written twice', () => {
    const one = oneStatement([
      { table: 'a', text: 'INSERT INTO a VALUES ($1, $2)', values: [1, 2] },
      { table: 'b', text: 'INSERT INTO b VALUES ($1)', values: [3] },
    ]);
    expect(one).toEqual({
      text: 'WITH w0 AS (INSERT INTO a VALUES ($1, $2)), w1 AS (INSERT INTO b VALUES ($3)) SELECT',
      values: [1, 2, 3],
    });
    expect(
      oneStatement([
        { table: 'a', text: 'INSERT INTO a VALUES ($1)', values: [1] },
        { table: 'a', text: 'INSERT INTO a VALUES ($1)', values: [2] },
      ]),
    ).toBeUndefined();
    expect(oneStatement([])).toBeUndefined();
  });
});
