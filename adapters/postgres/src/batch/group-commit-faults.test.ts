import pg, { type Pool } from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { groupCommit } from './group-commit';
import type { WriteKind } from './writer';

/** A kind writing numbers, one statement for any number of them. */
const numbers: WriteKind<number, string> = {
  what: 'insert number',
  plan: (inputs) => ({
    statements: [{ text: `INSERT ${inputs.join(',')}`, values: [...inputs] }],
    answers: () => inputs.map((n) => `stored ${n}`),
  }),
};

/**
 * A pool whose one client answers each statement as `answer` says, recording what was sent and how clients came back.
 */
function fakePool(answer: (text: string) => Promise<unknown>) {
  const sent: string[] = [];
  const released: unknown[] = [];
  const client = {
    query: (text: string) => (sent.push(text), answer(text)),
    release: (error?: unknown) => void released.push(error),
  };
  return { pool: { connect: async () => client } as unknown as Pool, sent, released };
}

const refused = (code: string): pg.DatabaseError =>
  Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code });

describe('group commit when the database fails', () => {
  it('writes a refused batch again one by one, so only the bad write fails', async () => {
    const { pool, sent } = fakePool(async (text) => {
      if (text.includes('2')) throw refused('23505');
      return { rows: [], rowCount: 1 };
    });
    const writer = groupCommit(pool);
    const results = await Promise.all([1, 2, 3].map((n) => writer.write(numbers, n)));
    expect(sent).toEqual(['INSERT 1,2,3', 'INSERT 1', 'INSERT 2', 'INSERT 3']);
    expect(results.map((r) => (r.isOk() ? r.value : r.error.type))).toEqual(['stored 1', 'Conflict', 'stored 3']);
  });

  it('never writes again when the connection breaks while committing: the commit may have landed', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const { pool, sent, released } = fakePool(async () => {
      throw lost;
    });
    const writer = groupCommit(pool);
    const results = await Promise.all([1, 2, 3].map((n) => writer.write(numbers, n)));
    expect(sent).toEqual(['INSERT 1,2,3']);
    const errors = results.map((r) => r._unsafeUnwrapErr());
    for (const error of errors) {
      // #18.10: a lost connection is retryable for the client (503 with Retry-After), though not by the group commit.
      expect(error).toMatchObject({
        type: 'StorageUnavailable',
        message:
          '[leadroute] [postgres] insert number failed: the database is unavailable (Connection terminated unexpectedly).',
        cause: lost,
      });
    }
    expect(new Set(errors).size).toBe(3);
    expect(released).toEqual([lost]);
  });

  it('#18.11 fails a whole batch at once when the database does not answer, instead of one timeout per write', async () => {
    const other: WriteKind<number, string> = { ...numbers, what: 'insert other' };
    const timeout = new Error('Query read timeout');
    const { pool, sent } = fakePool(async (text) => {
      if (text === 'BEGIN') return { rows: [], rowCount: 0 };
      throw timeout;
    });
    const writer = groupCommit(pool);
    const results = await Promise.all([writer.write(numbers, 1), writer.write(other, 2), writer.write(numbers, 3)]);
    // Each kind's batch once (kinds have queues of their own), none made again write by write.
    expect([...sent].sort()).toEqual(['INSERT 1,3', 'INSERT 2']);
    for (const result of results)
      expect(result._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', cause: timeout });
  });

  it('rolls a refused transaction back and keeps its connection, then writes one by one', async () => {
    // A kind of two statements, so a batch is a transaction: the second refuses the write of 2.
    const checked: WriteKind<number, string> = {
      what: 'insert checked',
      plan: (inputs) => ({
        statements: [
          { text: `INSERT ${inputs.join(',')}`, values: [...inputs] },
          { text: `CHECK ${inputs.join(',')}`, values: [...inputs] },
        ],
        answers: () => inputs.map((n) => `stored ${n}`),
      }),
    };
    const { pool, sent, released } = fakePool(async (text) => {
      if (text.startsWith('CHECK') && text.includes('2')) throw refused('22007');
      return { rows: [], rowCount: 1 };
    });
    const writer = groupCommit(pool);
    const results = await Promise.all([writer.write(checked, 1), writer.write(checked, 2)]);
    expect(sent).toEqual([
      ...['BEGIN', 'INSERT 1,2', 'CHECK 1,2', 'ROLLBACK'],
      ...['BEGIN', 'INSERT 1', 'CHECK 1', 'COMMIT'],
      ...['BEGIN', 'INSERT 2', 'CHECK 2', 'ROLLBACK'],
    ]);
    // Three checkouts (the batch, then each write alone), every connection handed back whole.
    expect(released).toEqual([undefined, undefined, undefined]);
    expect(results[0]?._unsafeUnwrap()).toBe('stored 1');
    expect(results[1]?._unsafeUnwrapErr()).toMatchObject({ type: 'StorageFailure', cause: { code: '22007' } });
  });

  it('still writes while the host has fake timers installed', async () => {
    vi.useFakeTimers();
    try {
      const { pool } = fakePool(async () => ({ rows: [], rowCount: 1 }));
      expect((await groupCommit(pool).write(numbers, 7))._unsafeUnwrap()).toBe('stored 7');
    } finally {
      vi.useRealTimers();
    }
  });
});
