import { expect } from 'vitest';
import { anAccount, anApiKey } from '../fixtures';
import type { Suite } from '../harness';

/** AccountStore: accounts and hashed API keys. */
export const accountStoreSuite: Suite = {
  name: 'AccountStore',
  cases: [
    {
      name: 'stores an account and reads it back exactly',
      async run({ storage, raw }) {
        const account = anAccount({ plan: 'free', staff: true });
        expect((await storage.accounts.insert(account)).isOk()).toBe(true);
        expect((await storage.accounts.get(account.id))._unsafeUnwrap()).toEqual(account);
        expect(await raw.account(account.id)).toMatchObject({ name: account.name, plan: 'free', staff: true });
      },
    },
    {
      name: '#19.13 update replaces an account, notification address included, and says whether it existed',
      async run({ storage }) {
        const account = anAccount();
        (await storage.accounts.insert(account))._unsafeUnwrap();
        const changed = { ...account, name: 'Renamed', notification_email: 'owner@example.com' };
        expect((await storage.accounts.update(changed))._unsafeUnwrap()).toBe(true);
        expect((await storage.accounts.get(account.id))._unsafeUnwrap()).toEqual(changed);
        expect((await storage.accounts.update(account))._unsafeUnwrap()).toBe(true);
        expect((await storage.accounts.get(account.id))._unsafeUnwrap()).toEqual(account);
        expect((await storage.accounts.update(anAccount()))._unsafeUnwrap()).toBe(false);
      },
    },
    {
      name: 'answers undefined for an unknown account',
      async run({ storage }) {
        expect((await storage.accounts.get(anAccount().id))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: 'refuses a second account with the same ID as a Conflict',
      async run({ storage }) {
        const account = anAccount();
        (await storage.accounts.insert(account))._unsafeUnwrap();
        const again = await storage.accounts.insert({ ...account, name: 'Other' });
        expect(again._unsafeUnwrapErr().type).toBe('Conflict');
        expect((await storage.accounts.get(account.id))._unsafeUnwrap()?.name).toBe(account.name);
      },
    },
    {
      name: 'finds an API key by its hash only',
      async run({ storage }) {
        const account = anAccount();
        (await storage.accounts.insert(account))._unsafeUnwrap();
        const key = anApiKey(account.id);
        expect((await storage.accounts.insertKey(key)).isOk()).toBe(true);
        expect((await storage.accounts.findKey(key.hash))._unsafeUnwrap()).toEqual(key);
        expect((await storage.accounts.findKey(key.hash.toUpperCase()))._unsafeUnwrap()).toBeUndefined();
        expect((await storage.accounts.findKey(`${key.hash.slice(0, -1)}1`))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: 'refuses a duplicate API key hash as a Conflict',
      async run({ storage }) {
        const a = anAccount();
        const b = anAccount();
        (await storage.accounts.insert(a))._unsafeUnwrap();
        (await storage.accounts.insert(b))._unsafeUnwrap();
        const key = anApiKey(a.id);
        (await storage.accounts.insertKey(key))._unsafeUnwrap();
        expect((await storage.accounts.insertKey({ ...key, account_id: b.id }))._unsafeUnwrapErr().type).toBe(
          'Conflict',
        );
        expect((await storage.accounts.findKey(key.hash))._unsafeUnwrap()?.account_id).toBe(a.id);
      },
    },
    {
      name: "#21.10 lists an account's keys oldest first, and removes a key by its hash",
      async run({ storage }) {
        const a = anAccount();
        const b = anAccount();
        (await storage.accounts.insert(a))._unsafeUnwrap();
        (await storage.accounts.insert(b))._unsafeUnwrap();
        const first = anApiKey(a.id, { created_at: '2026-01-01T00:00:00.000Z' });
        const second = anApiKey(a.id, { created_at: '2026-02-01T00:00:00.000Z' });
        const other = anApiKey(b.id);
        for (const key of [second, first, other]) (await storage.accounts.insertKey(key))._unsafeUnwrap();
        expect((await storage.accounts.keysOf(a.id))._unsafeUnwrap()).toEqual([first, second]);
        expect((await storage.accounts.removeKey(first.hash))._unsafeUnwrap()).toBe(true);
        expect((await storage.accounts.removeKey(first.hash))._unsafeUnwrap()).toBe(false);
        expect((await storage.accounts.findKey(first.hash))._unsafeUnwrap()).toBeUndefined();
        expect((await storage.accounts.keysOf(a.id))._unsafeUnwrap()).toEqual([second]);
        expect((await storage.accounts.keysOf(b.id))._unsafeUnwrap()).toEqual([other]);
      },
    },
  ],
};
