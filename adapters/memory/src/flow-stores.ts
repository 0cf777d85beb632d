import {
  type CounterStore,
  type CredentialStore,
  errors,
  type FlowStore,
  type LeadStore,
  type StoreError,
} from '@leadroute/core';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { DONE } from './done';
import { purgeInSlices } from './purge';
import { copy, type MemoryTables } from './tables';

const conflict = (message: string): ResultAsync<never, StoreError> => errAsync(errors.conflict(message) as StoreError);

export function flowStore(t: MemoryTables): FlowStore {
  return {
    insert: (flow) => (t.flows.has(flow.id) ? conflict('flow exists') : (t.flows.set(flow.id, copy(flow)), DONE)),
    get: (id) => okAsync(copy(t.flows.get(id))),
    listByAccount: (accountId) =>
      okAsync(
        [...t.flows.values()]
          .filter((f) => f.account_id === accountId)
          .sort((a, b) => a.id.localeCompare(b.id))
          .map(copy),
      ),
    update: (flow, expectedVersion) => {
      const current = t.flows.get(flow.id);
      if (!current || current.version !== expectedVersion) return conflict('flow version changed');
      t.flows.set(flow.id, copy(flow));
      return DONE;
    },
  };
}

export function leadStore(t: MemoryTables): LeadStore {
  return {
    insert: (lead) => (t.leads.has(lead.id) ? conflict('lead exists') : (t.leads.set(lead.id, copy(lead)), DONE)),
    get: (id) => okAsync(copy(t.leads.get(id))),
    setLatestEvent: (id, eventId) => {
      const lead = t.leads.get(id);
      if (lead) t.leads.set(id, { ...lead, latest_event_id: eventId });
      return DONE;
    },
    // Single-threaded JavaScript makes check-and-set atomic here.
    markReturned: (id, at) => {
      const lead = t.leads.get(id);
      if (!lead || lead.returned_at !== null) return okAsync(false);
      t.leads.set(id, { ...lead, returned_at: at });
      return okAsync(true);
    },
    purgeExpired: (before) => ResultAsync.fromSafePromise(purgeInSlices(t.leads, (lead) => lead.expires_at < before)),
  };
}

export function counterStore(t: MemoryTables): CounterStore {
  return {
    tryIncrement: (key, maximum, expiresAt) => {
      const counter = t.counters.get(key) ?? { count: 0, expires_at: expiresAt };
      if (counter.count >= maximum) return okAsync(false);
      t.counters.set(key, { count: counter.count + 1, expires_at: expiresAt });
      return okAsync(true);
    },
    decrement: (key) => {
      const counter = t.counters.get(key);
      if (counter && counter.count > 0) t.counters.set(key, { ...counter, count: counter.count - 1 });
      return DONE;
    },
    claim: (key, expiresAt, now) => {
      const counter = t.counters.get(key);
      if (counter && counter.count > 0 && counter.expires_at > now) return okAsync(false);
      t.counters.set(key, { count: 1, expires_at: expiresAt });
      return okAsync(true);
    },
    get: (key) => okAsync(t.counters.get(key)?.count ?? 0),
  };
}

export function credentialStore(t: MemoryTables): CredentialStore {
  return {
    insert: (c) => (t.credentials.has(c.id) ? conflict('credential exists') : (t.credentials.set(c.id, copy(c)), DONE)),
    get: (id) => okAsync(copy(t.credentials.get(id))),
    listByAccount: (accountId) =>
      okAsync([...t.credentials.values()].filter((c) => c.account_id === accountId).map(copy)),
  };
}
