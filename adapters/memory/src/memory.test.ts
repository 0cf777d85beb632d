import { type StorageHarness, failingCases, leadWritesSuite, runSuites, storageSuites } from '@leadroute/testkit';
import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from './index';

const harness = async (storage = memoryStorage()): Promise<StorageHarness> => ({
  storage,
  raw: {
    account: async (id) => storage.tables.accounts.get(id) as Record<string, unknown> | undefined,
    entity: async (id) => storage.tables.entities.get(id) as Record<string, unknown> | undefined,
    alias: async (id) => storage.tables.aliases.get(id) as Record<string, unknown> | undefined,
    flow: async (id) => storage.tables.flows.get(id) as Record<string, unknown> | undefined,
    lead: async (id) => storage.tables.leads.get(id) as Record<string, unknown> | undefined,
    event: async (id) => storage.tables.events.get(id) as Record<string, unknown> | undefined,
  },
});

runSuites('memory', () => harness(), [...storageSuites, leadWritesSuite]);

describe('the testkit can fail', () => {
  it('flags a store that leaks other accounts, drops updates and hands out shared objects', async () => {
    const broken = memoryStorage();
    const { tables } = broken;
    const leaky = {
      ...broken,
      entities: {
        ...broken.entities,
        // Keeps the caller's own object and hands it out: no copy either way.
        insert: (entity: Parameters<typeof broken.entities.insert>[0]) => (tables.entities.set(entity.id, entity), okAsync(undefined)),
        get: (id: string) => okAsync(tables.entities.get(id)),
        update: () => okAsync(undefined),
      },
      aliases: { ...broken.aliases, listByAccount: () => okAsync([...tables.aliases.values()]), remove: () => okAsync(true) },
      accounts: { ...broken.accounts, insert: () => errAsync({ type: 'StorageFailure' as const, message: 'down' }) },
    };
    const failed = await failingCases(() => harness(leaky as typeof broken), storageSuites);
    expect(failed).toEqual(
      expect.arrayContaining([
        'AccountStore: stores an account and reads it back exactly',
        'EntityStore: update replaces the stored entity',
        'EntityStore: hands out copies: changing a returned entity changes nothing stored',
        'EntityStore: keeps its own copy: changing an inserted entity afterwards changes nothing stored',
        "AliasStore: lists only the account's aliases, oldest first",
        'AliasStore: remove deletes the alias and reports whether it existed',
      ]),
    );
  });

  it('#18.12 flags lead writes that store record by record, and an adapter without them', async () => {
    const broken = memoryStorage();
    // Each record on its own, in the bundle's order: a refused record leaves the ones before it stored.
    const oneByOne = {
      ...broken,
      leadWrites: {
        commit: (bundle: Parameters<NonNullable<typeof broken.leadWrites>['commit']>[0]) =>
          bundle.events
            .reduce((acc, e) => acc.andThen(() => broken.events.insert(e)), okAsync<void, { type: 'Conflict'; message: string } | { type: 'StorageFailure'; message: string }>(undefined))
            .andThen(() => broken.rollups.add(bundle.rollups))
            .andThen(() => (bundle.search ? broken.search.index(bundle.search) : okAsync(undefined)))
            .andThen(() => (bundle.lead ? broken.leads.insert(bundle.lead) : okAsync(undefined))),
      },
    };
    expect(await failingCases(() => harness(oneByOne as typeof broken), [leadWritesSuite])).toEqual([
      'LeadWrites: #18.12 a refused row rolls back the whole lead: no lead, no event, no rollup, no search document',
      'LeadWrites: #18.12 among leads committed together, a refused one fails alone and the others are whole',
    ]);
    const without = { ...memoryStorage(), leadWrites: undefined };
    expect(await failingCases(() => harness(without as unknown as typeof broken), [leadWritesSuite])).toHaveLength(3);
  });
});
