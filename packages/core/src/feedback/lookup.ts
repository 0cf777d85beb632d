import { errAsync, ResultAsync } from 'neverthrow';
import { errors } from '../errors';
import type { EventRecorder } from '../events/recorder';
import type { StoredEvent } from '../domain/events';
import type { FlowRecord } from '../domain/flows';
import { isId } from '../ids';
import type { Account } from '../ports/accounts';
import type { Clock } from '../ports/clock';
import type { LeadRecord } from '../ports/leads';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import type { StoreError } from '../ports/store-error';
import { isoTime } from '../time';
import type { OutboundModule } from '../ports/integrations';
import { deliversFor, type FeedbackIntegrationRegistry } from './integrations';
import type { FeedbackError, InboundFeedbackModule } from './types';
import { mapAsync } from '../results';

/** What feedback runs on. */
export interface FeedbackDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly recorder: EventRecorder;
  readonly integrations: FeedbackIntegrationRegistry;
  /** Outbound modules, for feedback forwarded to sources (#24.6). */
  readonly outbound?: (moduleId: string) => OutboundModule | undefined;
  /** Recorded as `host` on feedback events. */
  readonly host: string;
  /**
   * An account and a flow by ID, as intake reads them: kept for a few seconds (see service.ts), so feedback, like a
   * lead, makes no round trip for them (#22).
   */
  readonly account: (id: string) => ResultAsync<Account | undefined, StoreError>;
  readonly flow: (id: string) => ResultAsync<FlowRecord | undefined, StoreError>;
}

/** The delivery feedback refers to: its recipient event, the lead, the flow (if it still exists) and the account. */
export interface Delivery {
  readonly event: StoredEvent;
  readonly lead: LeadRecord;
  readonly flow: FlowRecord | undefined;
  readonly account: Account;
}

/**
 * The one answer for an event_id that names no live delivery: unknown, past
 * retention, a lead ID, a source or other non-delivery event, whichever account
 * owns it (issue #18.1). The body echoes no ID, so every such ID is answered
 * byte for byte alike and none can be classified. Departs from the spec's 422 for
 * the wrong kind of ID (SECURITY.md).
 */
export const NO_DELIVERY_MESSAGE = 'No delivery event for event_id, or it is more than 90 days old.';
const noDelivery = (): FeedbackError => ({ type: 'NotFound', message: NO_DELIVERY_MESSAGE });

/** The lead, flow and account of a live recipient event; `missing` when the lead or account is gone. */
function complete(
  deps: FeedbackDeps,
  event: StoredEvent,
  now: string,
  missing: () => FeedbackError,
): ResultAsync<Delivery, FeedbackError> {
  return deps.storage.leads.get(event.lead_id).andThen((lead) => {
    if (!lead || lead.expires_at <= now) return errAsync(missing());
    return deps.account(event.account_id).andThen((account) => {
      if (!account) return errAsync(missing());
      return mapAsync(
        deps.flow(event.flow_id),
        (flow): Delivery => ({
          event,
          lead,
          account,
          flow: flow && flow.account_id === account.id ? flow : undefined,
        }),
      );
    });
  });
}

/**
 * The delivery named by a feedback `event_id`: 422 only for a malformed ID; one
 * 404 for everything else that is not a live delivery (see {@link NO_DELIVERY_MESSAGE}).
 */
export function deliveryByEventId(deps: FeedbackDeps, eventId: unknown): ResultAsync<Delivery, FeedbackError> {
  if (!isId(eventId)) {
    const shown = typeof eventId === 'string' ? eventId.slice(0, 64) : '';
    const message =
      eventId === undefined || eventId === '' ? 'event_id is required.' : `event_id ${shown} is not a valid ID.`;
    return errAsync(
      errors.validation([{ path: '/event_id', message: 'event_id must be a 24-character hexadecimal ID.' }], message),
    );
  }
  return byId(deps, eventId.toLowerCase(), true);
}

/**
 * How long feedback naming a delivery of a lead still being recorded in this process
 * waits for that lead's commit: a recipient may post feedback before it has even
 * answered the delivery, and a lead's records are written together once its last
 * step has run.
 */
export const UNCOMMITTED_EVENT_WAIT_MS = 10_000;

function byId(deps: FeedbackDeps, id: string, mayWait: boolean): ResultAsync<Delivery, FeedbackError> {
  const now = isoTime(deps.clock.now());
  return deps.storage.events.get(id).andThen((event) => {
    const pending = event || !mayWait ? undefined : deps.recorder.settled(id);
    if (pending) {
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, UNCOMMITTED_EVENT_WAIT_MS)));
      return ResultAsync.fromSafePromise(Promise.race([pending, bounded]).finally(() => clearTimeout(timer))).andThen(
        () => byId(deps, id, false),
      );
    }
    if (!event || event.expires_at <= now || event.type !== 'recipient') return errAsync(noDelivery());
    return complete(deps, event, now, noDelivery);
  });
}

/** What `POST /feedback/{recipient_name}` resolves a recipient_record_id with. */
export interface RecordAddress {
  /** The recipient's own record ID (the body's recipient_record_id, as the integration read it). */
  readonly recordId: unknown;
  /** The recipient entity (`?recipient_id=`): only its deliveries are considered. */
  readonly recipientId?: unknown;
}

/**
 * The delivery a recipient's record ID names, by an outbound module the
 * integration reports on (issue #18.4). The matches, narrowed to the recipient
 * entity when `recipientId` is given, must all be deliveries of one lead to one
 * recipient in one account; the newest of them is used. No match, or an ambiguous
 * one (several accounts, recipients or leads answered the same record ID), changes
 * nothing and is the spec's 404 with a feedback result of outcome failure.
 * A malformed `recipientId` is 422.
 */
export function deliveryByRecordId(
  deps: FeedbackDeps,
  module: InboundFeedbackModule,
  address: RecordAddress,
): ResultAsync<Delivery, FeedbackError> {
  const missing = (reason: string): FeedbackError => ({
    ...errors.notFound(reason),
    message: reason,
    result: { outcome: 'failure', reason, price: 0 },
  });
  const { recordId, recipientId } = address;
  if (recipientId !== undefined && !isId(recipientId))
    return errAsync(
      errors.validation(
        [{ path: '/recipient_id', message: 'recipient_id must be a 24-character hexadecimal ID.' }],
        'recipient_id is not a valid ID.',
      ),
    );
  const reference =
    typeof recordId === 'number' && Number.isFinite(recordId)
      ? String(recordId)
      : typeof recordId === 'string'
        ? recordId.trim()
        : '';
  if (reference === '') return errAsync(missing('recipient_record_id is required.'));
  const now = isoTime(deps.clock.now());
  const shown = reference.slice(0, 100);
  const notFound = () => missing(`No delivered lead has recipient_record_id ${shown}.`);
  const query = {
    reference,
    live_at: now,
    ...(recipientId === undefined ? {} : { recipient_id: recipientId.toLowerCase() }),
  };
  return deps.storage.events.findByReference(query).andThen((found) => {
    const events = found.filter(
      (e) => e.type === 'recipient' && e.outcome === 'success' && deliversFor(module, e.module_id),
    );
    const [newest] = events.sort(
      (a, b) => b.start_timestamp - a.start_timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    if (!newest) return errAsync(notFound());
    const same = (e: StoredEvent) =>
      e.account_id === newest.account_id && e.recipient_id === newest.recipient_id && e.lead_id === newest.lead_id;
    if (!events.every(same)) {
      // Several accounts' (or recipients', or leads') deliveries share the record ID: applying it to the newest would
      // change a lead the sender may not mean.
      const hint = recipientId === undefined ? ' Name the recipient with ?recipient_id=<recipient entity ID>.' : '';
      return errAsync(
        missing(`recipient_record_id ${shown} matches more than one delivered lead; nothing was changed.${hint}`),
      );
    }
    return complete(deps, newest, now, notFound);
  });
}
