import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, type CollectionName, type EntityDoc } from './documents';
import { indexDescription } from './indexes';
import { FIELD_ROLLUP_CELL } from './queries/field-rollups';
import {
  activeAlerts,
  activityPage,
  aliasesByAccount,
  claimableJobs,
  credentialsByAccount,
  dueSpoolItems,
  entitiesByOwner,
  eventPage,
  eventsByReference,
  exportPage,
  type FindQuery,
  flowsByAccount,
  INDEXES,
  ROLLUP_CELL,
  spoolCount,
} from './queries';

const named = (name: string) => INDEXES.find((i) => i.name === name);

/**
 * Whether some index of `collection` serves `query` without a collection scan or an
 * in-memory sort: its key starts with the filter's equality fields (any order), then
 * the sort fields in order. A deliberately simple reading of MongoDB's ESR rule.
 */
function served<T>(collection: CollectionName, query: FindQuery<T>): boolean {
  const filter = query.filter as Record<string, unknown>;
  const equality = Object.entries(filter)
    .filter(
      ([field, value]) =>
        !field.startsWith('$') && (value === null || typeof value !== 'object' || value instanceof Date),
    )
    .map(([field]) => field);
  const sort = Object.keys(query.sort).filter((f) => !equality.includes(f));
  return INDEXES.filter((i) => i.collection === collection).some((index) => {
    const keys = Object.keys(index.key);
    const head = keys.slice(0, equality.length);
    return equality.every((f) => head.includes(f)) && sort.every((f, n) => keys[equality.length + n] === f);
  });
}

describe('index specs', () => {
  it('have unique names, on the adapter’s own collections, with ascending keys', () => {
    expect(new Set(INDEXES.map((i) => i.name)).size).toBe(INDEXES.length);
    for (const index of INDEXES) {
      expect(Object.values(COLLECTIONS)).toContain(index.collection);
      expect(Object.keys(index.key).length).toBeGreaterThan(0);
      expect(Object.values(index.key).every((d) => d === 1)).toBe(true);
    }
  });

  it('enforce the ports’ uniqueness rules with unique indexes', () => {
    expect(named('api_keys_hash_unique')).toEqual({
      collection: 'api_keys',
      name: 'api_keys_hash_unique',
      key: { hash: 1 },
      unique: true,
    });
    expect(named('entity_aliases_account_entity_unique')).toMatchObject({
      collection: 'entity_aliases',
      key: { account_id: 1, entity_id: 1 },
      unique: true,
    });
    expect(named('spool_target_key_unique')).toMatchObject({
      collection: 'spool',
      key: { target: 1, key: 1 },
      unique: true,
    });
    expect(named('rollups_cell_unique')?.unique).toBe(true);
    expect(Object.keys(named('rollups_cell_unique')?.key ?? {})).toEqual([...ROLLUP_CELL]);
    expect(named('field_rollups_cell_unique')).toMatchObject({ collection: 'field_rollups', unique: true });
    expect(Object.keys(named('field_rollups_cell_unique')?.key ?? {})).toEqual([...FIELD_ROLLUP_CELL]);
    expect(named('certificates_ping_token_unique')).toMatchObject({
      collection: 'certificates',
      key: { ping_token: 1 },
      unique: true,
    });
    // Every other uniqueness rule (an ID, a job's (kind, id), a seen source, a search entry) is the document's own _id.
    expect(INDEXES.filter((i) => i.unique).map((i) => i.name)).toEqual([
      'api_keys_hash_unique',
      'entity_aliases_account_entity_unique',
      'spool_target_key_unique',
      'rollups_cell_unique',
      'field_rollups_cell_unique',
      'certificates_ping_token_unique',
    ]);
  });

  it('make TTL indexes only on a single Date field: the events’ 90-day retention and the counters’ windows', () => {
    const ttl = INDEXES.filter((i) => i.expireAfterSeconds !== undefined);
    for (const index of ttl) expect(Object.keys(index.key)).toHaveLength(1);
    expect(ttl).toEqual([
      { collection: 'events', name: 'events_expires_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
      { collection: 'counters', name: 'counters_expires_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
    ]);
  });

  it('serve every listing and lease from an index, sort included', () => {
    expect(served(COLLECTIONS.entities, entitiesByOwner('a'))).toBe(true);
    expect(served(COLLECTIONS.aliases, aliasesByAccount('a'))).toBe(true);
    expect(served(COLLECTIONS.spool, dueSpoolItems(0, 'firehose:'))).toBe(true);
    expect(served(COLLECTIONS.spool, { filter: spoolCount(), sort: {} })).toBe(true);
    expect(served(COLLECTIONS.flows, flowsByAccount('a'))).toBe(true);
    expect(served(COLLECTIONS.credentials, credentialsByAccount('a'))).toBe(true);
    expect(
      served(
        COLLECTIONS.events,
        eventPage({ account_id: 'a', live_at: '2026-01-01T00:00:00Z', sort: 'desc', limit: 5 }, new Date(0)),
      ),
    ).toBe(true);
    expect(
      served(
        COLLECTIONS.events,
        eventPage(
          { account_id: 'a', lead_id: 'l', live_at: '2026-01-01T00:00:00Z', sort: 'asc', limit: 5 },
          new Date(0),
        ),
      ),
    ).toBe(true);
    expect(served(COLLECTIONS.events, eventsByReference('ref', new Date(0)))).toBe(true);
    expect(
      served(COLLECTIONS.exports, exportPage({ account_id: 'a', live_at: '2026-01-01T00:00:00Z', limit: 5 })),
    ).toBe(true);
    expect(served(COLLECTIONS.jobs, claimableJobs('export', 0))).toBe(true);
    expect(served(COLLECTIONS.alerts, activeAlerts('a'))).toBe(true);
    expect(
      served(COLLECTIONS.alertActivity, activityPage({ account_id: 'a', key: 'k', customerOnly: false, limit: 5 })),
    ).toBe(true);
    // The check itself can fail: nothing indexes entities by name.
    expect(served<EntityDoc>(COLLECTIONS.entities, { filter: { name: 'x' }, sort: {} })).toBe(false);
  });

  it('become the driver’s index descriptions with their names and options', () => {
    expect(indexDescription(named('api_keys_hash_unique')!)).toEqual({
      key: { hash: 1 },
      name: 'api_keys_hash_unique',
      unique: true,
    });
    expect(indexDescription(named('entities_owner_created')!)).toEqual({
      key: { owner_account_id: 1, created_at: 1, _id: 1 },
      name: 'entities_owner_created',
    });
    expect(indexDescription({ collection: 'spool', name: 'ttl', key: { at: 1 }, expireAfterSeconds: 60 })).toEqual({
      key: { at: 1 },
      name: 'ttl',
      expireAfterSeconds: 60,
    });
  });
});

describe('stores', () => {
  // The mingo tests check the builders; that only covers the stores if the stores build
  // nothing of their own. No query operator or _id may appear in their source.
  it('send the driver only documents made by the query builders', () => {
    const dir = new URL('./stores/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      expect({
        file,
        operators: source.match(/['"]?\$[a-zA-Z]+['"]?\s*:/g) ?? [],
        ids: source.match(/\b_id\b/g) ?? [],
      }).toEqual({ file, operators: [], ids: [] });
    }
  });
});
