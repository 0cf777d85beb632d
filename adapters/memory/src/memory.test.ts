import { type StorageHarness, failingCases, flowStoreSuite, runSuites, storageSuites } from '@leadroute/testkit/suites';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
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

runSuites('memory', () => harness(), storageSuites);

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

  it('#18.13 flags a flow store that checks the version and writes in two steps (two writers from one version both win)', async () => {
    const broken = memoryStorage();
    const checkThenWrite = {
      ...broken,
      flows: {
        ...broken.flows,
        update: (flow: Parameters<typeof broken.flows.update>[0], expected: number) =>
          broken.flows.get(flow.id).andThen((current) =>
            current?.version === expected
              ? ResultAsync.fromSafePromise(new Promise((resolve) => setTimeout(resolve, 5))).andThen(
                  () => (broken.tables.flows.set(flow.id, flow), okAsync(undefined)),
                )
              : errAsync({ type: 'Conflict' as const, message: 'stale' }),
          ),
      },
    };
    const failed = await failingCases(() => harness(checkThenWrite as typeof broken), [flowStoreSuite]);
    expect(failed).toEqual(['FlowStore: #18.13 of concurrent updates from one version, exactly one succeeds and the others are Conflicts']);
  });
});
