import { expect } from 'vitest';
import { aCredential, aFlow, anAccount, freshId } from '../fixtures';
import type { Suite } from '../harness';

/** FlowStore: flow configurations with optimistic versioning. */
export const flowStoreSuite: Suite = {
  name: 'FlowStore',
  cases: [
    {
      name: 'stores a flow with nested rule sets and reads it back exactly',
      async run({ storage, raw }) {
        const flow = aFlow(anAccount().id);
        expect((await storage.flows.insert(flow)).isOk()).toBe(true);
        expect((await storage.flows.get(flow.id))._unsafeUnwrap()).toEqual(flow);
        expect(await raw.flow(flow.id)).toBeDefined();
      },
    },
    {
      name: "lists only the account's flows",
      async run({ storage }) {
        const mine = anAccount().id;
        const a = aFlow(mine, { name: 'A' });
        const b = aFlow(mine, { name: 'B' });
        (await storage.flows.insert(a))._unsafeUnwrap();
        (await storage.flows.insert(aFlow(anAccount().id)))._unsafeUnwrap();
        (await storage.flows.insert(b))._unsafeUnwrap();
        expect((await storage.flows.listByAccount(mine))._unsafeUnwrap().map((f) => f.name)).toEqual(['A', 'B']);
      },
    },
    {
      name: 'updates only from the expected version; a stale update is a Conflict',
      async run({ storage }) {
        const flow = aFlow(anAccount().id);
        (await storage.flows.insert(flow))._unsafeUnwrap();
        const v2 = { ...flow, name: 'Renamed', version: 2 };
        expect((await storage.flows.update(v2, 1)).isOk()).toBe(true);
        expect((await storage.flows.update({ ...flow, name: 'Stale', version: 2 }, 1))._unsafeUnwrapErr().type).toBe(
          'Conflict',
        );
        expect((await storage.flows.get(flow.id))._unsafeUnwrap()).toEqual(v2);
      },
    },
    {
      name: '#18.13 of concurrent updates from one version, exactly one succeeds and the others are Conflicts',
      async run({ storage }) {
        const flow = aFlow(anAccount().id);
        (await storage.flows.insert(flow))._unsafeUnwrap();
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => storage.flows.update({ ...flow, name: `Editor ${i}`, version: 2 }, 1)),
        );
        const won = results.flatMap((r, i) => (r.isOk() ? [i] : []));
        expect(won).toHaveLength(1);
        expect(results.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr().type)).toEqual(
          Array(7).fill('Conflict'),
        );
        expect((await storage.flows.get(flow.id))._unsafeUnwrap()).toMatchObject({
          name: `Editor ${won[0]}`,
          version: 2,
        });
      },
    },
    {
      name: 'answers undefined for an unknown flow',
      async run({ storage }) {
        expect((await storage.flows.get(freshId()))._unsafeUnwrap()).toBeUndefined();
      },
    },
  ],
};

/** CredentialStore. */
export const credentialStoreSuite: Suite = {
  name: 'CredentialStore',
  cases: [
    {
      name: "stores credentials and lists only the account's",
      async run({ storage }) {
        const mine = anAccount().id;
        const c = aCredential(mine);
        (await storage.credentials.insert(c))._unsafeUnwrap();
        (await storage.credentials.insert(aCredential(anAccount().id)))._unsafeUnwrap();
        expect((await storage.credentials.get(c.id))._unsafeUnwrap()).toEqual(c);
        expect((await storage.credentials.listByAccount(mine))._unsafeUnwrap()).toEqual([c]);
        expect((await storage.credentials.insert(c))._unsafeUnwrapErr().type).toBe('Conflict');
      },
    },
  ],
};
