import { okAsync, type ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import { isId } from '../ids';
import { typeLead } from '../rules';
import { isoTime } from '../time';
import { isRecord } from '../validation';
import type { LeadRun } from './context';
import { comparable } from './duplicates';

/**
 * Ping/post auctions (#24.5). A ping prices the lead at every recipient step that would take
 * it and answers the highest bid (ties go to the earlier step) with a `ping_id`; a post that
 * carries that `ping_id` within the validity window goes to the bidder alone, at its bid.
 */

/** How long a ping's bid holds when the flow does not say. */
export const DEFAULT_PING_VALIDITY_SECONDS = 300;

/** A recipient step's offer for a pinged lead, recorded on the ping event as `vars.bid`. */
export interface Bid {
  readonly step_id: string;
  readonly recipient_id: string;
  readonly price: number;
}

/** The highest bid; of equal bids, the first (the earlier step). */
export function bestBid(bids: readonly (Bid | undefined)[]): Bid | undefined {
  let best: Bid | undefined;
  for (const bid of bids) if (bid && (best === undefined || bid.price > best.price)) best = bid;
  return best;
}

/** What a post naming a ping gets: the bid it is delivered at, or why it is refused. */
export type PostOfPing =
  | { readonly accepted: true; readonly bid: Bid; readonly claimed: readonly string[] }
  | { readonly accepted: false; readonly reason: string };

export const PING_REASONS = {
  unknown: 'Unknown ping_id: no ping of this flow and source has it.',
  noBid: 'The ping got no bid: nothing can be posted for it.',
  expired: (seconds: number) => `The ping expired: post within ${seconds} seconds of it.`,
  mismatch: (fields: readonly string[]) => `The post does not match its ping: ${fields.join(', ')} differ.`,
  used: 'This ping_id was already posted.',
} as const;

const refuse = (reason: string): PostOfPing => ({ accepted: false, reason });

function isBid(value: unknown): value is Bid {
  return (
    isRecord(value) &&
    typeof value.step_id === 'string' &&
    typeof value.recipient_id === 'string' &&
    typeof value.price === 'number'
  );
}

/**
 * Resolves the ping a post names (`ping_id`, the ping's lead ID): a successful ping of the
 * same flow and source, still valid, whose fields all have the same normal form in the post.
 * The ping is taken atomically (`CounterStore.claim`), so it is posted at most once; the
 * claim is given back if the post is not accepted.
 */
export function resolvePing(run: LeadRun, sourceId: string, pingId: unknown): ResultAsync<PostOfPing, LeadrouteError> {
  const { deps } = run;
  if (!isId(pingId)) return okAsync(refuse(PING_REASONS.unknown));
  const validity = run.compiled.flow.ping_validity_seconds ?? DEFAULT_PING_VALIDITY_SECONDS;
  return deps.storage.events
    .query({
      account_id: run.account.id,
      lead_id: pingId.toLowerCase(),
      types: ['ping'],
      live_at: isoTime(run.submittedAt),
      sort: 'desc',
      limit: 1,
    })
    .andThen(([ping]) => {
      if (!ping || ping.flow_id !== run.flow.id || ping.source_id !== sourceId)
        return okAsync(refuse(PING_REASONS.unknown));
      const bid = ping.vars.bid;
      if (ping.outcome !== 'success' || !isBid(bid)) return okAsync(refuse(PING_REASONS.noBid));
      const expiresAt = ping.start_timestamp + validity * 1000;
      if (run.submittedAt >= expiresAt) return okAsync(refuse(PING_REASONS.expired(validity)));
      const pinged = isRecord(ping.vars.lead) ? ping.vars.lead : {};
      const typed = typeLead(pinged, run.compiled.fields, run.env) as Record<string, unknown>;
      const posted = run.ctx.lead as Record<string, unknown>;
      const differ = Object.keys(pinged).filter(
        (f) => f !== 'ping_id' && comparable(typed, f) !== undefined && comparable(typed, f) !== comparable(posted, f),
      );
      if (differ.length > 0) return okAsync(refuse(PING_REASONS.mismatch(differ)));
      const key = `post:${run.account.id}:${ping.lead_id}`;
      return deps.storage.counters
        .claim(key, isoTime(expiresAt), isoTime(run.submittedAt))
        .map((claimed): PostOfPing => (claimed ? { accepted: true, bid, claimed: [key] } : refuse(PING_REASONS.used)));
    });
}
