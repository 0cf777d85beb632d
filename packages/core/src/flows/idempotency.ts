import { createHash } from 'node:crypto';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import { isId } from '../ids';
import type { Clock } from '../ports/clock';
import type { IdempotencyScope, IdempotentAnswer } from '../ports/idempotency';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import type { IntakeOptions, LeadsApi } from './intake';
import { postingSecretMatches } from './posting-secret';

/** How long a key is remembered: a retry within a day gets the first answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Printable ASCII, 1 to 255 characters (a UUID fits; so does any key Stripe accepts). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** What a submission with an `Idempotency-Key` answers: the first request's answer, replayed or fresh. */
export interface IdempotentSubmission extends IdempotentAnswer {
  /** True when this is a stored answer to an earlier request with the same key, and no lead was made now. */
  readonly replayed: boolean;
}

interface Deps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly submit: LeadsApi['submit'];
}

/** The key's record holds a digest of the parsed body, so the same lead in JSON or as a form is the same request. */
const fingerprintOf = (body: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('base64url');

/**
 * Submit with an `Idempotency-Key`: the first request with a key (per account, flow and
 * source) runs and its answer is stored; a retry gets that answer and makes no lead.
 *
 * - A retry while the first request is still in flight: `Conflict` (409); retry later.
 * - The same key with another body: `Validation` (422), as Stripe answers.
 * - A first request that fails (a 4xx, or a 503 while the database is down) stores no
 *   answer: its key is freed, so the retry runs anew.
 * - Keys are remembered {@link IDEMPOTENCY_TTL_MS} (24 h).
 */
export function idempotentSubmit(deps: Deps) {
  return (
    flowId: string,
    sourceId: string,
    body: unknown,
    key: string,
    options: IntakeOptions = {},
  ): ResultAsync<IdempotentSubmission, LeadrouteError> => {
    const fresh = () =>
      deps
        .submit(flowId, sourceId, body, options)
        .map((result): IdempotentSubmission => ({ status: 201, body: result, replayed: false }));
    if (!KEY.test(key))
      return errAsync(errors.badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters.'));
    // An unknown flow or source is answered by submit itself, exactly as without a key.
    if (!isId(flowId) || !isId(sourceId)) return fresh();
    return deps.storage.flows.get(flowId.toLowerCase()).andThen((flow) => {
      // Only a request that may post here claims or replays a key: a replay must not answer a
      // caller without the posting secret, and a posting URL that leads nowhere is answered as without a key.
      const source = flow?.sources.find((s) => s.entity_id === sourceId.toLowerCase());
      if (!flow || !source) return fresh();
      const digest = source.posting_secret_sha256;
      if (
        source.require_posting_secret === true &&
        (digest === undefined || !postingSecretMatches(digest, options.postingSecret))
      )
        return fresh();
      const scope: IdempotencyScope = {
        account_id: flow.account_id,
        flow_id: flow.id,
        source_id: sourceId.toLowerCase(),
        key,
      };
      const fingerprint = fingerprintOf(body);
      const now = deps.clock.now();
      const claim = { ...scope, fingerprint, created_at: isoTime(now), expires_at: isoTime(now + IDEMPOTENCY_TTL_MS) };
      return deps.storage.idempotency
        .claim(claim, isoTime(now))
        .andThen((claimed): ResultAsync<IdempotentSubmission, LeadrouteError> => {
          if (!claimed.claimed) {
            const { record } = claimed;
            if (record.fingerprint !== fingerprint)
              return errAsync(
                errors.validation(
                  [{ path: '', message: 'This Idempotency-Key was used with a different body.' }],
                  'Idempotency-Key reused.',
                ),
              );
            if (record.answer === null)
              return errAsync(
                errors.conflict('A request with this Idempotency-Key is still being processed; retry later.'),
              );
            return okAsync({ ...record.answer, replayed: true });
          }
          return fresh()
            .orElse((error) =>
              // Free the key so the retry runs; if even that fails, the claim expires with the key.
              deps.storage.idempotency
                .release(scope)
                .orElse((released) => {
                  deps.logger.warn(
                    { err: released, key },
                    'could not free an idempotency key after a failed submission',
                  );
                  return okAsync(undefined);
                })
                .andThen(() => errAsync<IdempotentSubmission, LeadrouteError>(error)),
            )
            .andThen((answer) =>
              deps.storage.idempotency
                .complete(scope, { status: answer.status, body: answer.body })
                .map(() => answer)
                // The lead is stored: acknowledge it. The key stays claimed without an answer, so a retry gets 409,
                // never a second lead.
                .orElse((error) => {
                  deps.logger.warn({ err: error, key }, 'could not store the answer of an idempotent submission');
                  return okAsync(answer);
                }),
            );
        });
    });
  };
}
