import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../../adapters/memory/src';
import { aLead, anEvent } from '../../../testkit/src/fixtures';
import { errors } from '../errors';
import type { FieldRollupRow } from '../ports/field-rollups';
import type { LeadWriteBundle } from '../ports/lead-writes';
import { silentLogger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import type { StoreError } from '../ports/store-error';
import { createEventRecorder } from './recorder';

const NOW = Date.UTC(2026, 2, 8, 7, 30);

/** A lead of account `a1` with its source and recipient events, from Texas. */
function aLeadWithEvents() {
  const lead = aLead('a1');
  const ids = { lead_id: lead.id, flow_id: lead.flow_id, source_id: lead.source_id, start_timestamp: NOW };
  const source = anEvent('a1', { ...ids, type: 'source', recipient_id: null, key: undefined });
  const recipient = anEvent('a1', ids);
  return { lead: { ...lead, latest_event_id: recipient.id }, events: [source, recipient] };
}

/** Memory storage whose lead writes and field rollup adds are watched. */
function watched(commit?: (bundle: LeadWriteBundle) => ReturnType<NonNullable<Storage['leadWrites']>['commit']>) {
  const storage = memoryStorage();
  const bundles: LeadWriteBundle[] = [];
  const adds: (readonly FieldRollupRow[])[] = [];
  const fieldRollups = storage.fieldRollups;
  if (!fieldRollups || !storage.leadWrites) throw new Error('memory storage has field rollups and lead writes');
  const leadWrites = storage.leadWrites;
  const wrapped: Storage = {
    ...storage,
    fieldRollups: {
      ...fieldRollups,
      add: (rows) => {
        adds.push(rows);
        return fieldRollups.add(rows);
      },
    },
    leadWrites: {
      commit: (bundle) => {
        bundles.push(bundle);
        return commit ? commit(bundle) : leadWrites.commit(bundle);
      },
    },
  };
  return { storage, wrapped, bundles, adds };
}

const fieldCells = (storage: Storage) =>
  storage.fieldRollups?.query({
    account_id: 'a1',
    field: 'state',
    from: new Date(NOW - 3_600_000).toISOString(),
    to: new Date(NOW + 3_600_000).toISOString(),
  });

describe('event recorder: field rollups in the unit', () => {
  it("writes a lead's field rollup rows in its one unit (the bundle), none after it", async () => {
    const { storage, wrapped, bundles, adds } = watched();
    const recorder = createEventRecorder({ storage: wrapped, logger: silentLogger, clock: { now: () => NOW } });
    const { lead, events } = aLeadWithEvents();
    const unit = recorder.unit();
    for (const event of events) unit.add(event);
    (await unit.commit(lead))._unsafeUnwrap();
    expect(bundles).toHaveLength(1);
    // The account rolls up the default field (state): one row per rollup row, with the lead's value.
    const rows = bundles[0]?.fieldRollups ?? [];
    expect(rows.length).toBe(bundles[0]?.rollups.length);
    expect(rows.every((row) => row.field === 'state' && row.value === 'TX')).toBe(true);
    expect(adds).toEqual([]);
    const cells = (await fieldCells(storage))?._unsafeUnwrap() ?? [];
    expect(cells.reduce((n, c) => n + c.count, 0)).toBe(2);
  });

  it("asks the account's rolled-up fields once, with the unit's first event, not at its commit", async () => {
    const { wrapped } = watched();
    const fieldRollups = wrapped.fieldRollups;
    if (!fieldRollups) throw new Error('memory storage has field rollups');
    const asked: string[] = [];
    const storage: Storage = {
      ...wrapped,
      fieldRollups: {
        ...fieldRollups,
        fields: (account) => {
          asked.push(account);
          return fieldRollups.fields(account);
        },
      },
    };
    const recorder = createEventRecorder({ storage, logger: silentLogger, clock: { now: () => NOW } });
    const { lead, events } = aLeadWithEvents();
    const unit = recorder.unit();
    for (const event of events) unit.add(event);
    // Read while the lead's steps run: the commit does not wait for one more lookup.
    expect(asked).toEqual(['a1']);
    (await unit.commit(lead))._unsafeUnwrap();
    expect(asked).toEqual(['a1']);
  });

  it('leaves neither events nor field rollup rows when the unit fails to commit', async () => {
    const refused = errors.storageFailure('injected failure in the commit') as StoreError;
    const { storage, wrapped, adds } = watched(() => errAsync(refused));
    const recorder = createEventRecorder({ storage: wrapped, logger: silentLogger, clock: { now: () => NOW } });
    const { lead, events } = aLeadWithEvents();
    const unit = recorder.unit();
    for (const event of events) unit.add(event);
    expect((await unit.commit(lead))._unsafeUnwrapErr()).toBe(refused);
    expect(adds).toEqual([]);
    expect((await fieldCells(storage))?._unsafeUnwrap()).toEqual([]);
    for (const event of events) expect((await storage.events.get(event.id))._unsafeUnwrap()).toBeUndefined();
  });

  it('logs a lead whose deliveries were made but whose unit failed to commit, with the delivery event IDs', async () => {
    const refused = errors.storageUnavailable('injected: the database is unavailable') as StoreError;
    const { wrapped } = watched(() => errAsync(refused));
    const lines: { obj: object; msg?: string }[] = [];
    const logger = { ...silentLogger, error: (obj: object, msg?: string) => lines.push({ obj, msg }) };
    const recorder = createEventRecorder({ storage: wrapped, logger, clock: { now: () => NOW } });
    const { lead, events } = aLeadWithEvents();
    const unit = recorder.unit();
    unit.expect(events[1]?.id as string);
    for (const event of events) unit.add(event);
    expect((await unit.commit(lead))._unsafeUnwrapErr()).toBe(refused);
    expect(lines).toEqual([
      {
        obj: { lead_id: lead.id, account_id: 'a1', deliveries: [events[1]?.id], err: refused },
        msg: 'lead delivered but not recorded',
      },
    ]);
    // A unit that delivered nothing logs nothing: the source's error says all there is.
    const quiet = recorder.unit();
    quiet.add(aLeadWithEvents().events[0] as (typeof events)[number]);
    expect((await quiet.commit(aLeadWithEvents().lead)).isErr()).toBe(true);
    expect(lines).toHaveLength(1);
  });

  it('adds field rollup rows record by record when the storage offers no lead writes', async () => {
    const storage = memoryStorage();
    const { leadWrites, ...recordByRecord } = storage;
    expect(leadWrites).toBeDefined();
    const recorder = createEventRecorder({ storage: recordByRecord, logger: silentLogger, clock: { now: () => NOW } });
    const { lead, events } = aLeadWithEvents();
    const unit = recorder.unit();
    for (const event of events) unit.add(event);
    (await unit.commit(lead))._unsafeUnwrap();
    const cells = (await fieldCells(storage))?._unsafeUnwrap() ?? [];
    expect(cells.reduce((n, c) => n + c.count, 0)).toBe(2);
  });
});
