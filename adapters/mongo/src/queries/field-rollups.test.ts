import { describe, expect, it } from 'vitest';
import {
  FIELD_ROLLUP_CELL,
  type FieldRollupDoc,
  fieldRollupCell,
  fieldRollupPipeline,
  type RollupFieldsDoc,
  rollupFieldsOf,
  setRollupFields,
} from './field-rollups';
import { rollupIncrement } from './rollups';

describe('field rollup query shapes (#22.6)', () => {
  const q = {
    account_id: 'a'.repeat(24),
    field: 'state',
    from: '2026-03-01T05:00:00.000Z',
    to: '2026-03-31T04:00:00.000Z',
    kinds: ['source' as const],
  };

  it('matches one account, field and range of hours, and sums over the columns not kept', () => {
    const [match, group, project] = fieldRollupPipeline({ ...q, keep: ['source_id'] });
    expect(match).toEqual({
      $match: {
        account_id: q.account_id,
        field: 'state',
        hour: { $gte: new Date(q.from), $lt: new Date(q.to) },
        kind: { $in: ['source'] },
      },
    });
    expect(Object.keys((group as { $group: { _id: object } }).$group._id).sort()).toEqual(
      ['category', 'kind', 'outcome', 'source_id', 'stage', 'value'].sort(),
    );
    expect((project as { $project: Record<string, unknown> }).$project).toMatchObject({
      hour: { $literal: new Date(q.from) },
      source_id: '$_id.source_id',
      flow_id: { $literal: '' },
    });
  });

  it('reads whole cells without keep, and keeps a null value apart in the cell filter', () => {
    expect(fieldRollupPipeline(q).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$project']);
    const row = {
      account_id: q.account_id,
      field: 'state',
      value: null,
      hour: q.from,
      flow_id: 'f',
      source_id: 's',
      recipient_id: '',
      step_id: '',
      kind: 'source' as const,
      outcome: 'success',
      category: '',
      stage: '',
      count: 1,
      cost: 0,
      revenue: 0,
      purchase_price: 0,
    };
    expect(fieldRollupCell(row)).toMatchObject({ value: null, hour: new Date(q.from), field: 'state' });
    // Equality on exactly the unique index's fields: what lets the server retry a racing upsert.
    expect(Object.keys(fieldRollupCell(row)).sort()).toEqual([...FIELD_ROLLUP_CELL].sort());
  });
});

describe('field rollup updates, run by mingo (#22.6)', () => {
  it('rollupIncrement adds a row to its field rollup cell; rollupFieldsOf and setRollupFields replace an account’s fields', async () => {
    const { findOne, upsertOne } = await import('../mingo.test-helper');
    const row = {
      account_id: 'a'.repeat(24),
      field: 'state',
      hour: '2026-03-01T05:00:00.000Z',
      value: 'TX',
      flow_id: 'f',
      source_id: 's',
      recipient_id: '',
      step_id: '',
      kind: 'source' as const,
      outcome: 'success',
      category: '',
      stage: '',
      count: 2,
      cost: 1,
      revenue: 3,
      purchase_price: 1,
    };
    const cells: FieldRollupDoc[] = [];
    upsertOne(cells, fieldRollupCell(row), rollupIncrement(row));
    upsertOne(cells, fieldRollupCell(row), rollupIncrement({ ...row, count: 5 }));
    expect(cells).toHaveLength(1);
    expect(findOne(cells, fieldRollupCell(row))).toMatchObject({ value: 'TX', count: 7, revenue: 6 });
    const settings: RollupFieldsDoc[] = [];
    upsertOne(settings, rollupFieldsOf('acct'), setRollupFields([{ field: 'state', since: 1772323200000 }]));
    upsertOne(settings, rollupFieldsOf('acct'), setRollupFields([{ field: 'city', since: 1772409600000 }]));
    expect(findOne(settings, rollupFieldsOf('acct'))?.fields).toEqual([{ field: 'city', since: 1772409600000 }]);
    expect(findOne(settings, rollupFieldsOf('other'))).toBeNull();
  });
});
