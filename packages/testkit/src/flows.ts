import {
  type Clock,
  createLeadService,
  type LeadService,
  type LeadServiceOptions,
  type OutboundModule,
  type Principal,
  type ScriptedRecipient,
  scriptedRecipient,
} from '@leadroute/core';
import {
  type MemoryFileStore,
  memoryFileStore,
  type MemoryOutbox,
  memoryOutbox,
  type MemoryStorage,
  memoryStorage,
} from '@leadroute/memory';

/** A clock tests move by hand. */
export interface ManualClock extends Clock {
  set(ms: number | string | Date): void;
  advance(ms: number): void;
}

/**
 * A clock that stands still until told to move.
 * @param start where it starts. @default 2026-01-15T15:00:00Z
 */
export function manualClock(start: number | string | Date = '2026-01-15T15:00:00Z'): ManualClock {
  let now = new Date(start).getTime();
  return {
    now: () => now,
    set: (ms) => {
      now = new Date(ms).getTime();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** What {@link createTestService} returns: the service and the handles a test steers it with. */
export interface TestService {
  readonly service: LeadService;
  readonly storage: MemoryStorage;
  readonly clock: ManualClock;
  /** The scripted recipient (module ID `platform-test.outbound.scripted`). */
  readonly recipient: ScriptedRecipient;
  /** The notifier: every e-mail the service sent (export notices, alerts). */
  readonly outbox: MemoryOutbox;
  /** The export file store. Exports run only when the test calls `service.exports.runPending()`. */
  readonly files: MemoryFileStore;
  /** A paid account in `time_zone`, its principal and API key. */
  readonly principal: Principal;
  readonly apiKey: string;
  /** Creates a source entity and a recipient entity of the account; returns their IDs. */
  entities(): Promise<{ sourceId: string; recipientId: string }>;
}

/**
 * A service on memory storage with a manual clock and a scripted recipient: how
 * to unit-test a flow without a network or a database.
 * @example
 * const t = await createTestService();
 * const { sourceId, recipientId } = await t.entities();
 * const flow = (await t.service.flows.create(t.principal, { name: 'Auto', sources: [{ entity_id: sourceId }],
 *   steps: [{ type: 'recipient', entity_id: recipientId, module_id: t.recipient.id }] }))._unsafeUnwrap();
 * const result = (await t.service.leads.submit(flow.id, sourceId, { email: 'a@b.co' }))._unsafeUnwrap();
 */
export async function createTestService(
  options: { time_zone?: string; clock?: ManualClock; integrations?: readonly OutboundModule[] } & Partial<
    Omit<LeadServiceOptions, 'storage' | 'clock' | 'integrations'>
  > = {},
): Promise<TestService> {
  const storage = memoryStorage();
  const clock = options.clock ?? manualClock();
  const recipient = scriptedRecipient();
  const outbox = memoryOutbox();
  const files = memoryFileStore();
  const service = createLeadService({
    notifier: outbox,
    fileStore: files,
    ...options,
    exports: { worker: false, ...options.exports },
    storage,
    clock,
    integrations: [recipient, ...(options.integrations ?? [])],
    host: options.host ?? 'test',
  });
  const created = await service.accounts.create({
    name: 'Test Account',
    time_zone: options.time_zone ?? 'America/New_York',
  });
  if (created.isErr()) throw new Error(created.error.message);
  const principal = (await service.accounts.authenticate(created.value.api_key))._unsafeUnwrap();
  return {
    service,
    storage,
    clock,
    recipient,
    outbox,
    files,
    principal,
    apiKey: created.value.api_key,
    async entities() {
      const source = await service.entities.create(principal, {
        name: 'Test Vendor',
        module_ids: [],
        source: 'seller',
        recipient: null,
      });
      const buyer = await service.entities.create(principal, {
        name: 'Test Buyer',
        module_ids: [],
        source: null,
        recipient: 'buyer',
      });
      return { sourceId: source._unsafeUnwrap().id, recipientId: buyer._unsafeUnwrap().id };
    },
  };
}
