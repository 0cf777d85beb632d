import { expect } from 'vitest';
import { anAccount, anAlias, freshId } from '../fixtures';
import type { Suite } from '../harness';

/** AliasStore: at most one alias per (account, entity). */
export const aliasStoreSuite: Suite = {
  name: 'AliasStore',
  cases: [
    {
      name: 'stores an alias and reads it back',
      async run({ storage, raw }) {
        const alias = anAlias(anAccount().id, freshId());
        expect((await storage.aliases.insert(alias)).isOk()).toBe(true);
        expect((await storage.aliases.get(alias.id))._unsafeUnwrap()).toEqual(alias);
        expect(await raw.alias(alias.id)).toMatchObject({
          entity_alias: alias.entity_alias,
          account_id: alias.account_id,
        });
      },
    },
    {
      name: "lists only the account's aliases, oldest first",
      async run({ storage }) {
        const mine = anAccount().id;
        const a = anAlias(mine, freshId(), { entity_alias: 'A' });
        const x = anAlias(anAccount().id, freshId(), { entity_alias: 'X' });
        const b = anAlias(mine, freshId(), { entity_alias: 'B' });
        for (const alias of [b, x, a]) (await storage.aliases.insert(alias))._unsafeUnwrap();
        expect((await storage.aliases.listByAccount(mine))._unsafeUnwrap().map((l) => l.entity_alias)).toEqual([
          'A',
          'B',
        ]);
      },
    },
    {
      name: 'refuses a second alias of the same entity in one account, allows it in another',
      async run({ storage }) {
        const entityId = freshId();
        const mine = anAccount().id;
        (await storage.aliases.insert(anAlias(mine, entityId)))._unsafeUnwrap();
        expect((await storage.aliases.insert(anAlias(mine, entityId)))._unsafeUnwrapErr().type).toBe('Conflict');
        expect((await storage.aliases.insert(anAlias(anAccount().id, entityId))).isOk()).toBe(true);
        expect((await storage.aliases.listByAccount(mine))._unsafeUnwrap()).toHaveLength(1);
      },
    },
    {
      name: 'update changes the alias and keeps the uniqueness rule',
      async run({ storage, raw }) {
        const mine = anAccount().id;
        const first = anAlias(mine, freshId());
        const second = anAlias(mine, freshId());
        (await storage.aliases.insert(first))._unsafeUnwrap();
        (await storage.aliases.insert(second))._unsafeUnwrap();
        expect((await storage.aliases.update({ ...first, entity_alias: 'Renamed' })).isOk()).toBe(true);
        expect(await raw.alias(first.id)).toMatchObject({ entity_alias: 'Renamed' });
        const clash = await storage.aliases.update({ ...second, entity_id: first.entity_id });
        expect(clash._unsafeUnwrapErr().type).toBe('Conflict');
        expect((await storage.aliases.get(second.id))._unsafeUnwrap()).toEqual(second);
      },
    },
    {
      name: 'remove deletes the alias and reports whether it existed',
      async run({ storage, raw }) {
        const alias = anAlias(anAccount().id, freshId());
        (await storage.aliases.insert(alias))._unsafeUnwrap();
        expect((await storage.aliases.remove(alias.id))._unsafeUnwrap()).toBe(true);
        expect((await storage.aliases.get(alias.id))._unsafeUnwrap()).toBeUndefined();
        expect(await raw.alias(alias.id)).toBeUndefined();
        expect((await storage.aliases.remove(alias.id))._unsafeUnwrap()).toBe(false);
      },
    },
  ],
};
