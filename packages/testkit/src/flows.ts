import {
  type Clock,
  createHttpHandler,
  createLeadService,
  defineFlow,
  type EventRecord,
  type EventType,
  type Flow,
  type HttpHandlerOptions,
  isoTime,
  type LeadrouteHttpHandler,
  type LeadService,
  type LeadServiceOptions,
  type OutboundModule,
  type Principal,
  type SCRIPTED_RECIPIENT_ID,
  type ScriptedRecipient,
  scriptedRecipient,
  type TypedFlow,
  type TypedRecipientStep,
  toEventRecord,
} from '@leadroute/core';
import {
  type MemoryFileStore,
  memoryFileStore,
  type MemoryOutbox,
  memoryOutbox,
  type MemoryStorage,
  memoryStorage,
} from '@leadroute/memory';
import { type InjectRequest, type InjectResponse, inject } from './inject';
import { unwrap } from './unwrap';

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
  readonly recipient: ScriptedRecipient<typeof SCRIPTED_RECIPIENT_ID>;
  /** The notifier: every e-mail the service sent (export notices, alerts). */
  readonly outbox: MemoryOutbox;
  /** The export file store. Exports run only when the test calls `service.exports.runPending()`. */
  readonly files: MemoryFileStore;
  /** A paid account in `time_zone`, its principal and API key. */
  readonly principal: Principal;
  readonly apiKey: string;
  /** Creates a source entity and a recipient entity of the account; returns their IDs. */
  entities(): Promise<{ sourceId: string; recipientId: string }>;
  /**
   * Creates a typed flow (see `defineFlow` in `@leadroute/core`) in the test account; throws an
   * `UnwrapError` listing each validation issue (`/steps/0/module_id: ...`) when it is refused.
   */
  createFlow(flow: TypedFlow): Promise<Flow>;
  /**
   * Creates a source and a recipient entity and a flow from the one to the other through the
   * scripted recipient: the usual start of a flow test. `extra` adds to the flow (criteria,
   * limits, a firehose) and `step` to its one recipient step (caps, pricing, mappings).
   */
  simpleFlow(
    extra?: Partial<Omit<TypedFlow, 'sources' | 'steps'>>,
    step?: Omit<TypedRecipientStep<typeof SCRIPTED_RECIPIENT_ID>, 'type' | 'entity_id' | 'module_id'>,
  ): Promise<{ flow: Flow; sourceId: string; recipientId: string }>;
  /**
   * The lead's events as the API shows them (past retention they are gone), in the order they
   * were recorded, typed as the core's `EventRecord`; only those of `type` when given.
   */
  eventsOf(leadId: string, type?: EventType): Promise<EventRecord[]>;
  /**
   * Sends a request through the core HTTP handler, as the Express and Fastify bindings do,
   * without a socket, with the test account's API key unless told otherwise.
   * @example
   * const res = await t.inject({ method: 'POST', url: `/flows/${flow.id}/sources/${sourceId}/submit`, body: { state:
   * 'TX' } });
   * expect(res.status).toBe(201);
   */
  inject<Body = unknown>(request: InjectRequest): Promise<InjectResponse<Body>>;
}

/**
 * A service on memory storage with a manual clock and a scripted recipient: how
 * to unit-test a flow without a network or a database.
 * @example
 * const t = await createTestService();
 * const { sourceId, recipientId } = await t.entities();
 * const flow = await t.createFlow({ name: 'Auto', sources: [{ entity_id: sourceId }],
 *   steps: [{ type: 'recipient', entity_id: recipientId, module_id: t.recipient.id }] });
 * const result = await unwrap(t.service.leads.submit(flow.id, sourceId, { email: 'a@b.co' }));
 * const events = await t.eventsOf(result.lead.id);
 */
export async function createTestService(
  options: {
    time_zone?: string;
    clock?: ManualClock;
    integrations?: readonly OutboundModule[];
    /** Options of the HTTP handler {@link TestService.inject} drives. */
    http?: HttpHandlerOptions;
  } & Partial<Omit<LeadServiceOptions, 'storage' | 'clock' | 'integrations'>> = {},
): Promise<TestService> {
  const storage = memoryStorage();
  const clock = options.clock ?? manualClock();
  const recipient = scriptedRecipient();
  const outbox = memoryOutbox();
  const files = memoryFileStore();
  const { http, ...serviceOptions } = options;
  const service = createLeadService({
    notifier: outbox,
    fileStore: files,
    ...serviceOptions,
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
  const { api_key: apiKey } = unwrap(created);
  const principal = await unwrap(service.accounts.authenticate(apiKey));
  let handler: LeadrouteHttpHandler | undefined;
  const entities = async () => {
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
    return { sourceId: unwrap(source).id, recipientId: unwrap(buyer).id };
  };
  const createFlow = (flow: TypedFlow) => unwrap(service.flows.create(principal, flow));
  return {
    service,
    storage,
    clock,
    recipient,
    outbox,
    files,
    principal,
    apiKey,
    entities,
    createFlow,
    async simpleFlow(extra = {}, step = {}) {
      const { sourceId, recipientId } = await entities();
      const flow = await createFlow(
        defineFlow({
          name: 'Test flow',
          ...extra,
          sources: [{ entity_id: sourceId }],
          steps: [{ ...step, type: 'recipient', entity_id: recipientId, module_id: recipient.id }],
        }),
      );
      return { flow, sourceId, recipientId };
    },
    async eventsOf(leadId, type) {
      const events: EventRecord[] = [];
      const page = 500;
      let after: string | undefined;
      for (;;) {
        const batch = await unwrap(
          storage.events.query({
            account_id: principal.account.id,
            lead_id: leadId.toLowerCase(),
            ...(type ? { types: [type] } : {}),
            ...(after ? { after_id: after } : {}),
            live_at: isoTime(clock.now()),
            sort: 'asc',
            limit: page,
          }),
        );
        events.push(...batch.map(toEventRecord));
        after = batch[batch.length - 1]?.id;
        if (batch.length < page || !after) return events;
      }
    },
    inject(request) {
      handler ??= createHttpHandler(service, http);
      return inject(handler, request, apiKey);
    },
  };
}
