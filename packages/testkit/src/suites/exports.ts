import type { StoredExport } from '@leadroute/core';
import { expect } from 'vitest';
import { anAccount, freshId } from '../fixtures';
import type { Suite } from '../harness';
import { anExport } from '../records';

const USER = {
  id: 'a'.repeat(24),
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  sso_id: 'sso-1',
};

const LIVE = '2026-03-02T00:00:00.000Z';

/** ExportStore: export requests, their progress, listing and the download log. */
export const exportStoreSuite: Suite = {
  name: 'ExportStore',
  cases: [
    {
      name: 'stores an export and reads it back exactly',
      async run({ storage }) {
        const exp = anExport(anAccount().id);
        (await storage.exports.insert(exp))._unsafeUnwrap();
        expect((await storage.exports.get(exp.id))._unsafeUnwrap()).toEqual(exp);
        expect((await storage.exports.get(freshId()))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: 'refuses a second export with the same ID as a conflict',
      async run({ storage }) {
        const exp = anExport(anAccount().id);
        (await storage.exports.insert(exp))._unsafeUnwrap();
        expect((await storage.exports.insert(exp))._unsafeUnwrapErr().type).toBe('Conflict');
      },
    },
    {
      name: "lists only the account's unexpired exports, newest first, paged by before_id and after_id",
      async run({ storage }) {
        const account = anAccount().id;
        const [a, b, c, d] = [anExport(account), anExport(account), anExport(account), anExport(account)];
        const expired = anExport(account, { expires_at: '2026-03-01T23:59:59.000Z' });
        const other = anExport(anAccount().id);
        for (const e of [a, b, c, d, expired, other]) (await storage.exports.insert(e as StoredExport))._unsafeUnwrap();
        const ids = async (q: { before_id?: string; after_id?: string; limit?: number }) =>
          (await storage.exports.list({ account_id: account, live_at: LIVE, limit: q.limit ?? 100, ...q }))
            ._unsafeUnwrap()
            .map((e) => e.id);
        expect(await ids({})).toEqual([d?.id, c?.id, b?.id, a?.id]);
        expect(await ids({ limit: 2 })).toEqual([d?.id, c?.id]);
        expect(await ids({ before_id: c?.id as string })).toEqual([b?.id, a?.id]);
        expect(await ids({ after_id: b?.id as string })).toEqual([d?.id, c?.id]);
        expect(await ids({ after_id: a?.id as string, before_id: d?.id as string })).toEqual([c?.id, b?.id]);
      },
    },
    {
      name: 'update applies a patch, keeps the rest and answers the new state',
      async run({ storage }) {
        const exp = anExport(anAccount().id);
        (await storage.exports.insert(exp))._unsafeUnwrap();
        (await storage.exports.update(exp.id, { status: 'processing', exported_docs: 500 }))._unsafeUnwrap();
        const done = (
          await storage.exports.update(exp.id, {
            status: 'truncated',
            exported_docs: 1000,
            file_key: 'k.csv',
            file_name: 'f.csv',
            reason: { message: 'limit' },
          })
        )._unsafeUnwrap();
        expect(done).toEqual({
          ...exp,
          status: 'truncated',
          exported_docs: 1000,
          file_key: 'k.csv',
          file_name: 'f.csv',
          reason: { message: 'limit' },
        });
        expect((await storage.exports.get(exp.id))._unsafeUnwrap()).toEqual(done);
        expect((await storage.exports.update(freshId(), { status: 'error' }))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: 'addDownload appends every entry, concurrent ones included',
      async run({ storage }) {
        const exp = anExport(anAccount().id);
        (await storage.exports.insert(exp))._unsafeUnwrap();
        const at = (i: number) => `2026-03-02T00:00:${String(i).padStart(2, '0')}.000Z`;
        const added = await Promise.all(
          Array.from({ length: 10 }, (_, i) => storage.exports.addDownload(exp.id, { at: at(i), user: USER })),
        );
        expect(added.map((r) => r._unsafeUnwrap())).toEqual(Array(10).fill(true));
        const downloads = (await storage.exports.get(exp.id))._unsafeUnwrap()?.downloads ?? [];
        expect(downloads.map((d) => d.at).sort()).toEqual(Array.from({ length: 10 }, (_, i) => at(i)));
        expect(downloads[0]?.user).toEqual(USER);
        expect((await storage.exports.addDownload(freshId(), { at: at(0), user: USER }))._unsafeUnwrap()).toBe(false);
      },
    },
    {
      name: 'hands out copies: changing a returned export changes nothing stored',
      async run({ storage }) {
        const exp = anExport(anAccount().id);
        (await storage.exports.insert(exp))._unsafeUnwrap();
        const got = (await storage.exports.get(exp.id))._unsafeUnwrap() as unknown as {
          fields: string[];
          downloads: unknown[];
        };
        got.fields.push('x');
        got.downloads.push({});
        expect((await storage.exports.get(exp.id))._unsafeUnwrap()).toEqual(exp);
      },
    },
  ],
};
