import type { LeadServiceOptions } from '@leadroute/core';
import { postgresStorage } from '@leadroute/postgres';
import { databaseAvailable, freshSchema, type TestSchema } from '../../adapters/postgres/src/test-support';
import { type Answer, type Call, call } from './call';
import { createFixture, type Fixture } from './fixture';
import { BINDINGS, type Binding, startBinding } from './servers';

/** Each binding on each storage: memory always, PostgreSQL when a server answers. */
export async function stackCases(file: string) {
  const storages = (await databaseAvailable(file)) ? (['memory', 'postgres'] as const) : (['memory'] as const);
  return BINDINGS.flatMap((binding) => storages.map((storage) => [binding, storage] as const));
}

/** A service (the fixture's four callers) behind a real binding, on memory or a PostgreSQL schema of its own. */
export interface Stack {
  readonly f: Fixture;
  readonly binding: Binding;
  req(c: Call): Promise<Answer>;
  /** Creates an entity in the account of `key` (the demo account's by default); its ID. */
  entity(body: Record<string, unknown>, key?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startStack(
  bindingName: (typeof BINDINGS)[number],
  storageName: 'memory' | 'postgres',
  options: Omit<LeadServiceOptions, 'storage'> = {},
): Promise<Stack> {
  const db: TestSchema | undefined = storageName === 'postgres' ? await freshSchema() : undefined;
  const f = await createFixture({
    ...options,
    ...(db ? { storage: postgresStorage({ pool: db.pool, schema: db.schema }) } : {}),
  });
  const binding = await startBinding(bindingName, f.service);
  const req = (c: Call) => call(binding.url, c);
  return {
    f,
    binding,
    req,
    entity: async (body, key = f.keys.demo) =>
      (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
        .id as string,
    close: async () => {
      await binding.close();
      await f.service.close();
      await db?.drop();
    },
  };
}
