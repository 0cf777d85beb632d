import { expect } from 'vitest';
import { anAccount, anEntity, freshId } from '../fixtures';
import type { Suite } from '../harness';

/** EntityStore: custom and account entities, never deleted. */
export const entityStoreSuite: Suite = {
  name: 'EntityStore',
  cases: [
    {
      name: 'stores an entity and reads every field back',
      async run({ storage, raw }) {
        const entity = anEntity(anAccount().id, {
          see: freshId(),
          deprecated: true,
          module_ids: ['platform-a.outbound.b', 'platform-c.inbound.feedback'],
        });
        expect((await storage.entities.insert(entity)).isOk()).toBe(true);
        expect((await storage.entities.get(entity.id))._unsafeUnwrap()).toEqual(entity);
        expect(await raw.entity(entity.id)).toMatchObject({
          name: entity.name,
          owner_account_id: entity.owner_account_id,
        });
      },
    },
    {
      name: 'keeps nulls and empty arrays as they are',
      async run({ storage }) {
        const entity = anEntity(anAccount().id, {
          flow_ids: [],
          module_ids: [],
          logo_url: null,
          website: null,
          time_zone: null,
          field_suffix: null,
          recipient: null,
          source: 'seller',
        });
        (await storage.entities.insert(entity))._unsafeUnwrap();
        expect((await storage.entities.get(entity.id))._unsafeUnwrap()).toEqual(entity);
      },
    },
    {
      name: 'answers undefined for an unknown entity',
      async run({ storage }) {
        expect((await storage.entities.get(freshId()))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: "lists only the owner's entities, oldest first",
      async run({ storage }) {
        const mine = anAccount().id;
        const theirs = anAccount().id;
        const first = anEntity(mine, { name: 'First' });
        const other = anEntity(theirs, { name: 'Theirs' });
        const second = anEntity(mine, { name: 'Second' });
        for (const e of [second, other, first]) (await storage.entities.insert(e))._unsafeUnwrap();
        const listed = (await storage.entities.listByOwner(mine))._unsafeUnwrap();
        expect(listed.map((e) => e.name)).toEqual(['First', 'Second']);
        expect((await storage.entities.listByOwner(freshId()))._unsafeUnwrap()).toEqual([]);
      },
    },
    {
      name: 'update replaces the stored entity',
      async run({ storage, raw }) {
        const entity = anEntity(anAccount().id);
        (await storage.entities.insert(entity))._unsafeUnwrap();
        const changed = {
          ...entity,
          name: 'Renamed',
          deprecated: true,
          flow_ids: [],
          updated_at: new Date(Date.UTC(2027, 0, 1)).toISOString(),
        };
        expect((await storage.entities.update(changed)).isOk()).toBe(true);
        expect((await storage.entities.get(entity.id))._unsafeUnwrap()).toEqual(changed);
        expect(await raw.entity(entity.id)).toMatchObject({ name: 'Renamed', deprecated: true });
      },
    },
    {
      name: 'refuses a second entity with the same ID as a Conflict',
      async run({ storage }) {
        const entity = anEntity(anAccount().id);
        (await storage.entities.insert(entity))._unsafeUnwrap();
        expect((await storage.entities.insert({ ...entity, name: 'Dup' }))._unsafeUnwrapErr().type).toBe('Conflict');
      },
    },
    {
      name: 'hands out copies: changing a returned entity changes nothing stored',
      async run({ storage }) {
        const entity = anEntity(anAccount().id);
        // Compared with a snapshot: a store handing out the inserted object itself would change `entity` too.
        const before = structuredClone(entity);
        (await storage.entities.insert(entity))._unsafeUnwrap();
        const got = (await storage.entities.get(entity.id))._unsafeUnwrap() as unknown as {
          name: string;
          flow_ids: string[];
        };
        got.name = 'Mutated';
        got.flow_ids.push(freshId());
        expect((await storage.entities.get(entity.id))._unsafeUnwrap()).toEqual(before);
      },
    },
    {
      name: 'keeps its own copy: changing an inserted entity afterwards changes nothing stored',
      async run({ storage }) {
        const entity = anEntity(anAccount().id);
        const mine = structuredClone(entity) as unknown as { name: string; flow_ids: string[] };
        (await storage.entities.insert(mine as unknown as typeof entity))._unsafeUnwrap();
        mine.name = 'Mutated';
        mine.flow_ids.push(freshId());
        expect((await storage.entities.get(entity.id))._unsafeUnwrap()).toEqual(entity);
      },
    },
  ],
};
