import type { StoredEvent } from '../domain/events';
import type { RollupKind, RollupRow } from '../ports/rollups';

/** Why a lead was turned away, for the category alerts and statistics. */
export type RejectionCategory =
  | 'duplicate'
  | 'invalid-email'
  | 'invalid-phone'
  | 'missing-certificate'
  | 'certificate-failure';

/**
 * Classifies a rejection from its outcome and reason; '' for a success or a
 * reason that names none of the categories. Reasons are free text (a rule's
 * reason reads like `lead.email is not valid`), so this reads them by keyword,
 * in order: a duplicate first (a duplicate of an invalid e-mail is still a
 * duplicate), then a certificate skip "missing certificate", then any other
 * certificate problem, then e-mail and phone problems.
 * @example rejectionCategory({ outcome: 'skip', reason: 'Missing certificate' }) // 'missing-certificate'
 */
export function rejectionCategory(event: Pick<StoredEvent, 'outcome' | 'reason'>): RejectionCategory | '' {
  if (event.outcome === 'success') return '';
  const reason = event.reason.toLowerCase();
  if (reason === '') return '';
  if (/duplicate/.test(reason)) return 'duplicate';
  if (/certificate|trustedform|\btf\b/.test(reason)) {
    return event.outcome === 'skip' && /missing|no (consent )?certificate|not found|absent/.test(reason)
      ? 'missing-certificate'
      : 'certificate-failure';
  }
  if (/e-?mail/.test(reason)) return 'invalid-email';
  if (/phone/.test(reason)) return 'invalid-phone';
  return '';
}

const hours = new Map<number, string>();

/** Start of the UTC hour of an instant, ISO 8601. */
export function hourOf(ms: number): string {
  // Events arrive in few distinct hours; formatting a date costs more than the rest of the mapping.
  const hour = Math.floor(ms / 3_600_000) * 3_600_000;
  let text = hours.get(hour);
  if (text === undefined) {
    if (hours.size > 4096) hours.clear();
    text = new Date(hour).toISOString();
    hours.set(hour, text);
  }
  return text;
}

/** The rollup kind an event counts as, or undefined for events statistics do not count. */
export function rollupKind(event: Pick<StoredEvent, 'type' | 'feedback'>): RollupKind | undefined {
  switch (event.type) {
    case 'source':
    case 'recipient':
    case 'filter':
    case 'ping':
      return event.type;
    case 'feedback-received':
      return event.feedback?.type === 'conversion'
        ? 'conversion-received'
        : event.feedback?.type === 'return'
          ? 'return-received'
          : undefined;
    case 'feedback-sent':
      return event.feedback?.type === 'conversion'
        ? 'conversion-sent'
        : event.feedback?.type === 'return'
          ? 'return-sent'
          : undefined;
    default:
      return undefined;
  }
}

/** The outcome a won ping is counted under (kind ping), at the hour of the post that won it. */
export const PING_WON = 'won';

/** The lead ID of the ping a posted lead answers (`ping_id` among its fields), if any. */
export function pingIdOf(event: StoredEvent): string | undefined {
  if (event.type !== 'source' || event.outcome !== 'success') return undefined;
  const lead = event.vars.lead;
  const id = lead && typeof lead === 'object' ? (lead as Record<string, unknown>).ping_id : undefined;
  return typeof id === 'string' && /^[0-9a-fA-F]{24}$/.test(id) ? id.toLowerCase() : undefined;
}

const money = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);

/**
 * The rollup rows one event adds (count 1 each). Money, so that statistics can
 * sum it without reading events:
 * - source: `purchase_price` as recorded; `cost` is the purchase price of an
 *   accepted lead (success): a rejected lead is not paid for.
 * - recipient: `cost` is the step's cost of a delivery attempt (not of a skip,
 *   which never reached the recipient); `revenue` as recorded (only successes earn).
 * - feedback: the conversion's reason is its `stage`; nothing is summed.
 * `won` adds the row that counts a ping won by this post (see {@link pingIdOf}).
 */
export function eventRows(event: StoredEvent, won = false): RollupRow[] {
  const kind = rollupKind(event);
  if (!kind) return [];
  const hour = hourOf(event.start_timestamp);
  const sourceSide = kind === 'source' || kind === 'ping';
  const recipient_id = sourceSide ? '' : (event.recipient_id ?? '');
  const step_id = sourceSide ? '' : (event.step_id ?? '');
  // Rows are written out field by field: object spread is the slowest part of this mapping, run once per event.
  const row = (
    kind: RollupKind,
    outcome: string,
    category: string,
    stage: string,
    cost: number,
    revenue: number,
    purchase_price: number,
  ): RollupRow => ({
    account_id: event.account_id,
    hour,
    flow_id: event.flow_id,
    source_id: event.source_id,
    recipient_id,
    step_id,
    kind,
    outcome,
    category,
    stage,
    count: 1,
    cost,
    revenue,
    purchase_price,
  });
  const rows = [
    row(
      kind,
      event.outcome,
      kind === 'source' || kind === 'recipient' || kind === 'filter' ? rejectionCategory(event) : '',
      kind === 'conversion-received' || kind === 'conversion-sent' ? (event.feedback?.reason ?? '') : '',
      kind === 'source'
        ? event.outcome === 'success'
          ? money(event.purchase_price)
          : 0
        : kind === 'recipient' && event.outcome !== 'skip'
          ? money(event.cost)
          : 0,
      kind === 'recipient' ? money(event.revenue) : 0,
      kind === 'source' ? money(event.purchase_price) : 0,
    ),
  ];
  if (won) rows.push(row('ping', PING_WON, '', '', 0, 0, 0));
  return rows;
}
