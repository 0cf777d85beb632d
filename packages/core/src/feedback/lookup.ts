import { errAsync, ResultAsync } from 'neverthrow';
import { errors } from '../errors';
import type { EventRecorder } from '../events/recorder';
import type { StoredEvent } from '../events/types';
import type { FlowRecord } from '../flows/types';
import { isId } from '../ids';
import type { Account } from '../ports/accounts';
import type { Clock } from '../ports/clock';
import type { LeadRecord } from '../ports/leads';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { deliversFor, type FeedbackIntegrationRegistry } from './integrations';
import type { FeedbackError, InboundFeedbackModule } from './types';

/** What feedback runs on. */
export interface FeedbackDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly recorder: EventRecorder;
  readonly integrations: FeedbackIntegrationRegistry;
  /** Recorded as `host` on feedback events. */
  readonly host: string;
}

/** The delivery feedback refers to: its recipient event, the lead, the flow (if it still exists) and the account. */
export interface Delivery {
  readonly event: StoredEvent;
  readonly lead: LeadRecord;
  readonly flow: FlowRecord | undefined;
  readonly account: Account;
}

const noEvent = (id: string): FeedbackError => errors.notFound('event', id);

/** The lead, flow and account of a live recipient event; 404 when the lead or account is gone. */
function complete(deps: FeedbackDeps, event: StoredEvent, now: string): ResultAsync<Delivery, FeedbackError> {
  return deps.storage.leads.get(event.lead_id).andThen((lead) => {
    if (!lead || lead.expires_at <= now) return errAsync(noEvent(event.id));
    return deps.storage.accounts.get(event.account_id).andThen((account) => {
      if (!account) return errAsync(noEvent(event.id));
      return deps.storage.flows.get(event.flow_id).map((flow): Delivery => ({ event, lead, account, flow: flow && flow.account_id === account.id ? flow : undefined }));
    });
  });
}

/**
 * The delivery named by a feedback `event_id`: 422 for a malformed ID or one of
 * the wrong kind (a lead ID, a source or other non-delivery event), 404 for no
 * event or one past its 90-day retention (even before a purge removes it).
 */
export function deliveryByEventId(deps: FeedbackDeps, eventId: unknown): ResultAsync<Delivery, FeedbackError> {
  if (!isId(eventId)) {
    const shown = typeof eventId === 'string' ? eventId.slice(0, 64) : '';
    const message = eventId === undefined || eventId === '' ? 'event_id is required.' : `event_id ${shown} is not a valid ID.`;
    return errAsync(errors.validation([{ path: '/event_id', message: 'event_id must be a 24-character hexadecimal ID.' }], message));
  }
  return byId(deps, eventId, eventId.toLowerCase(), true);
}

/**
 * How long feedback naming a delivery of a lead still being recorded in this process
 * waits for that lead's commit: a recipient may post feedback before it has even
 * answered the delivery, and a lead's records are written together once its last
 * step has run.
 */
export const UNCOMMITTED_EVENT_WAIT_MS = 10_000;

function byId(deps: FeedbackDeps, eventId: string, id: string, mayWait: boolean): ResultAsync<Delivery, FeedbackError> {
  const now = isoTime(deps.clock.now());
  return deps.storage.events.get(id).andThen((event) => {
    const pending = event || !mayWait ? undefined : deps.recorder.settled(id);
    if (pending) {
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, UNCOMMITTED_EVENT_WAIT_MS)));
      return ResultAsync.fromSafePromise(Promise.race([pending, bounded]).finally(() => clearTimeout(timer))).andThen(() => byId(deps, eventId, id, false));
    }
    if (event && event.expires_at <= now) return errAsync(noEvent(eventId));
    if (event && event.type !== 'recipient')
      return errAsync(errors.validation([{ path: '/event_id', message: `event_id names a ${event.type} event, not a delivery event.` }], 'event_id refers to the wrong kind of event.'));
    if (event) return complete(deps, event, now);
    // An ID that is not an event may be a lead's: the wrong kind of ID rather than an unknown one.
    return deps.storage.leads.get(id).andThen((lead) =>
      lead && lead.expires_at > now
        ? errAsync(errors.validation([{ path: '/event_id', message: 'event_id names a lead, not a delivery event.' }], 'event_id refers to the wrong kind of event.'))
        : errAsync(noEvent(eventId)),
    );
  });
}

/**
 * The newest successful delivery, by an outbound module the integration reports
 * on, whose recipient reference is `recordId`. 404 with a feedback result when
 * there is none (events past retention are not live).
 */
export function deliveryByRecordId(deps: FeedbackDeps, module: InboundFeedbackModule, recordId: unknown): ResultAsync<Delivery, FeedbackError> {
  const missing = (reason: string): FeedbackError => ({ ...errors.notFound(reason), message: reason, result: { outcome: 'failure', reason, price: 0 } });
  const reference = typeof recordId === 'number' && Number.isFinite(recordId) ? String(recordId) : typeof recordId === 'string' ? recordId.trim() : '';
  if (reference === '') return errAsync(missing('recipient_record_id is required.'));
  const now = isoTime(deps.clock.now());
  return deps.storage.events.findByReference(reference, now).andThen((events) => {
    const event = events.find((e) => e.type === 'recipient' && e.outcome === 'success' && deliversFor(module, e.module_id));
    const notFound = missing(`No delivered lead has recipient_record_id ${reference.slice(0, 100)}.`);
    if (!event) return errAsync(notFound);
    return complete(deps, event, now).orElse((e) => errAsync(e.type === 'NotFound' ? notFound : e));
  });
}
