import { type FileStore, type FileStoreError, type Id, newId, type StoredEvent } from '@leadroute/core';
import { errAsync, ResultAsync } from 'neverthrow';

/** A stored event of `accountId` at `atMs`, with lead data under vars. */
export function exportEvent(
  accountId: Id,
  atMs: number,
  lead: Record<string, unknown>,
  overrides: Partial<StoredEvent> = {},
): StoredEvent {
  const id = newId(atMs);
  return {
    id,
    account_id: accountId,
    type: 'source',
    outcome: 'success',
    reason: '',
    vars: { lead, event_id: id },
    host: 'test',
    start_timestamp: atMs,
    end_timestamp: atMs + 7,
    ms: 7,
    wait_ms: 0,
    overhead_ms: 1,
    lag_ms: 0,
    total_ms: 7,
    handler_version: '0.1.0',
    version: '1.0.0',
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: new Date(atMs + 90 * 86_400_000).toISOString(),
    lead_id: newId(atMs),
    flow_id: 'f'.repeat(24),
    source_id: 'e'.repeat(24),
    recipient_id: null,
    ...overrides,
  };
}

/** A file store in front of another that a test switches between working, failing and holding writes. */
export interface GatedFileStore {
  readonly store: FileStore;
  /** Writes wait (the export stays processing) until `pass()`. */
  hold(): void;
  /** Writes fail as if the store were down. */
  fail(): void;
  /** Writes go through again, and held ones proceed. */
  pass(): void;
}

export function gatedFileStore(inner: FileStore): GatedFileStore {
  let mode: 'pass' | 'hold' | 'fail' = 'pass';
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const down: FileStoreError = { type: 'StorageFailure', message: '[leadroute] [gated] The file store is down.' };
  const store = {
    ...inner,
    put: (key: string, body: AsyncIterable<string | Uint8Array>, options: { contentType: string }) => {
      if (mode === 'fail') return errAsync(down);
      const waitFor = gate;
      return ResultAsync.fromSafePromise(waitFor).andThen(() => inner.put(key, body, options));
    },
  } as FileStore;
  return {
    store,
    hold() {
      mode = 'hold';
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    fail() {
      mode = 'fail';
    },
    pass() {
      mode = 'pass';
      release();
      gate = Promise.resolve();
    },
  };
}
