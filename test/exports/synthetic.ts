import type { EventStore, FileStoreError, Id, ServedFileStore, StoredEvent } from '@leadroute/core';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';

const COMMENT = 'Looking for a quote on a 2019 sedan, "full coverage", please call after 5pm, thanks. '.repeat(3);
const STATES = ['TX', 'CA', 'NY', 'FL', 'GA'];

/** The ID of synthetic event `i`: hexadecimal, so IDs sort as the index does. */
export const syntheticId = (i: number): Id => i.toString(16).padStart(24, '0');

/** Synthetic event `i` of `accountId`: a realistic source event, about 600 bytes of CSV with the bench's fields. */
export function syntheticEvent(accountId: Id, i: number, startMs: number): StoredEvent {
  const id = syntheticId(i);
  return {
    id,
    account_id: accountId,
    type: 'source',
    outcome: i % 7 === 0 ? 'failure' : 'success',
    reason: i % 7 === 0 ? 'lead.state is not included in TX, CA' : '',
    vars: {
      lead: {
        first_name: `First${i}`,
        last_name: `Last, ${i}`,
        email: `person${i}@example.com`,
        phone_1: `+1512555${String(i % 10_000).padStart(4, '0')}`,
        address_1: `${i} Main Street`,
        city: 'Austin',
        state: STATES[i % STATES.length],
        postal_code: '78701',
        comments: COMMENT,
        dob: '1980-05-01',
      },
      event_id: id,
    },
    host: 'bench',
    start_timestamp: startMs + i,
    end_timestamp: startMs + i + 12,
    ms: 12,
    wait_ms: 0,
    overhead_ms: 2,
    lag_ms: 0,
    total_ms: 12,
    handler_version: '0.1.0',
    version: '1.0.0',
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: new Date(startMs + 90 * 86_400_000).toISOString(),
    lead_id: id,
    flow_id: 'f'.repeat(24),
    source_id: 'e'.repeat(24),
    recipient_id: null,
  };
}

/** The columns the memory test and the bench export. */
export const SYNTHETIC_FIELDS = [
  'id',
  'type',
  'outcome',
  'reason',
  'start_timestamp',
  'lead.first_name',
  'lead.last_name',
  'lead.email',
  'lead.phone_1',
  'lead.address_1',
  'lead.city',
  'lead.state',
  'lead.postal_code',
  'lead.comments',
  'lead.dob',
];

/**
 * An event store of `count` events made up page by page as they are asked for:
 * nothing is held, so what an export keeps in memory is the export's own doing.
 */
export function syntheticEventStore(accountId: Id, count: number, startMs: number): EventStore {
  return {
    insert: () => errAsync({ type: 'StorageFailure', message: 'read-only' }),
    get: (id) =>
      okAsync(
        Number.parseInt(id, 16) < count ? syntheticEvent(accountId, Number.parseInt(id, 16), startMs) : undefined,
      ),
    query(q) {
      const out: StoredEvent[] = [];
      if (q.account_id !== accountId || q.sort !== 'asc') return okAsync(out);
      for (
        let i = q.after_id === undefined ? 0 : Number.parseInt(q.after_id, 16) + 1;
        i < count && out.length < q.limit;
        i++
      ) {
        const at = startMs + i;
        if ((q.start !== undefined && at < q.start) || (q.end !== undefined && at >= q.end)) continue;
        out.push(syntheticEvent(accountId, i, startMs));
      }
      return okAsync(out);
    },
    findByReference: () => okAsync([]),
    purgeExpired: () => okAsync(0),
  };
}

/** A file store that counts what it is given and keeps none of it; `onChunk` sees the running byte count. */
export function countingFileStore(
  onChunk: (bytes: number) => void = () => {},
): ServedFileStore & { readonly written: Map<string, number> } {
  const written = new Map<string, number>();
  return {
    name: 'counting',
    delivery: 'served',
    capabilities: { remove: true },
    written,
    put(key, body) {
      const drain = async () => {
        let bytes = 0;
        for await (const chunk of body) {
          bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
          onChunk(bytes);
        }
        written.set(key, bytes);
        return { bytes };
      };
      return ResultAsync.fromPromise(
        drain(),
        (e): FileStoreError => ({ type: 'StorageFailure', message: '[leadroute] [counting] failed', cause: e }),
      );
    },
    read: () => okAsync(undefined),
    remove: () => okAsync(undefined),
  };
}
