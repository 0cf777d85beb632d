import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { ENTITY_DEFAULTS } from '../entities/defaults';
import { errors, type LeadrouteError } from '../errors';
import { type Id, isId, newId } from '../ids';
import type { Clock } from '../ports/clock';
import type { Account } from '../ports/accounts';
import type { Connection, EntityRecord } from '../ports/entities';
import type { Notifier } from '../ports/notifier';
import { escapeHtml, oneLine } from '../notifications/escape';
import type { Storage } from '../ports/storage';
import { validator } from '../schemas/define';
import { INVITATION_DEFAULT_DAYS, type Invitation, InvitationCreateBody } from '../schemas/connections';
import { isoTime } from '../time';

/**
 * Account connections (#24.7). An invitation is a pair of entities, one in each account, each
 * standing for the other account: `invitation_id` on both is the inviter's entity's ID (so an
 * entity whose `invitation_id` is its own ID is the sent side). Accepting clears `pending` on
 * both; declining or expiry leaves them unconnected. A connected seller's entity is a source
 * the buyer's flows can use, a connected buyer's a recipient: until then flows refuse them.
 */
export interface ConnectionsApi {
  /** Invites another account. Answered alike whether that account exists or not. */
  invite(principal: Principal, body: InvitationCreateBody): ResultAsync<Invitation, LeadrouteError>;
  /** The account's invitations, sent and received, newest first. */
  list(principal: Principal): ResultAsync<Invitation[], LeadrouteError>;
  accept(principal: Principal, invitationId: string): ResultAsync<Invitation, LeadrouteError>;
  decline(principal: Principal, invitationId: string): ResultAsync<Invitation, LeadrouteError>;
}

const INVERSE: Readonly<Record<Connection, Connection>> = { seller: 'buyer', buyer: 'seller', both: 'both' };
const DAY = 86_400_000;

/** The classes an entity needs to be used as what the other account is: a source, a recipient, or both. */
const classes = (role: Connection) => ({
  source: role === 'buyer' ? null : ('seller' as const),
  recipient: role === 'seller' ? null : ('buyer' as const),
});

const sent = (e: EntityRecord) => e.invitation_id === e.id;
const expiredAt = (e: EntityRecord, now: number) =>
  e.pending && e.invitation_expires_at !== null && Date.parse(e.invitation_expires_at) <= now;

function view(e: EntityRecord, now: number): Invitation {
  const expired = e.expired || expiredAt(e, now);
  return {
    invitation_id: e.invitation_id as Id,
    direction: sent(e) ? 'sent' : 'received',
    status: expired ? 'expired' : e.pending ? 'pending' : e.connected ? 'connected' : 'declined',
    role: (e.connected ?? 'both') as Connection,
    entity_id: e.id,
    name: e.name,
    expires_at: e.invitation_expires_at ?? isoTime(now),
  };
}

const checkInvite = validator(InvitationCreateBody);

const WHAT: Readonly<Record<Connection, string>> = {
  seller: 'send it leads',
  buyer: 'buy its leads',
  both: 'trade leads with it',
};
const noSuchInvitation = (id: string) => errors.notFound('invitation', id);

export function createConnectionsApi(deps: { storage: Storage; clock: Clock; notifier?: Notifier }): ConnectionsApi {
  const { storage, clock, notifier } = deps;

  /**
   * Tells an invited address what it was invited to and how to accept: best effort (a mail that
   * cannot be sent does not undo the invitation; the invitee also sees it in its invitations).
   */
  const tell = (to: string, inviter: string, role: Connection, id: string, expires: string) =>
    (
      notifier?.send({
        to: [to],
        subject: oneLine(`${inviter} invites you to connect on Leadroute`),
        text: `${inviter} invites your account to ${WHAT[role]}. Accept with POST /connections/invitations/${id}/accept (or decline) before ${expires}.`,
        html: `<p>${escapeHtml(inviter)} invites your account to ${WHAT[role]}.</p><p>Accept with <code>POST /connections/invitations/${id}/accept</code> (or decline) before ${expires}.</p>`,
        headers: { 'X-Leadroute-Invitation': id },
      }) ?? okAsync(undefined)
    ).orElse(() => okAsync(undefined));

  /** The invitee's side of an invitation, in this account; NotFound for anything else, alike. */
  const received = (principal: Principal, invitationId: string) => {
    if (!isId(invitationId)) return errAsync(noSuchInvitation(invitationId));
    const id = invitationId.toLowerCase();
    return storage.entities
      .listByOwner(principal.account.id)
      .andThen((own) => {
        const mine = own.find((e) => e.invitation_id === id && !sent(e));
        return mine ? okAsync(mine) : errAsync(noSuchInvitation(invitationId));
      })
      .andThen((mine) =>
        storage.entities.get(id).andThen((theirs) =>
          // Both sides must name each other: an entity of another pair cannot be reached by an ID.
          // An invitation by e-mail names no account on the inviter's side until one accepts it.
          theirs &&
          theirs.owner_account_id === mine.connected_account_id &&
          (theirs.connected_account_id === mine.owner_account_id ||
            (theirs.connected_account_id === null && theirs.pending))
            ? okAsync({ mine, theirs })
            : errAsync(noSuchInvitation(invitationId)),
        ),
      );
  };

  /** Settles a pending invitation: both sides updated, or a 409 saying why it cannot be. */
  const settle = (principal: Principal, invitationId: string, accept: boolean) =>
    received(principal, invitationId).andThen(({ mine, theirs }) => {
      const now = clock.now();
      if (expiredAt(mine, now) || mine.expired) {
        const at = isoTime(now);
        const expire = (e: EntityRecord): EntityRecord => ({ ...e, pending: false, expired: true, updated_at: at });
        return storage.entities
          .update(expire(mine))
          .andThen(() => storage.entities.update(expire(theirs)))
          .andThen(() => errAsync(errors.conflict('The invitation expired; ask for a new one.')));
      }
      if (!mine.pending)
        return errAsync(errors.conflict(`The invitation was already ${mine.connected ? 'accepted' : 'declined'}.`));
      const at = isoTime(now);
      const settled = (e: EntityRecord): EntityRecord =>
        accept
          ? { ...e, pending: false, updated_at: at }
          : { ...e, pending: false, connected: null, source: null, recipient: null, updated_at: at };
      const next = settled(mine);
      // The inviter's side now names the account that accepted (an invitation by e-mail named none).
      const other = {
        ...settled(theirs),
        connected_account_id: accept ? mine.owner_account_id : theirs.connected_account_id,
      };
      return storage.entities
        .update(next)
        .andThen(() => storage.entities.update(other))
        .map(() => view(next, now));
    });

  return {
    invite(principal, body) {
      const checked = checkInvite(body);
      if (checked.isErr()) return errAsync(errors.validation(checked.error, 'The invitation is not valid.'));
      const input = checked.value;
      if ((input.account_id === undefined) === (input.email === undefined))
        return errAsync(
          errors.validation(
            [{ path: '/account_id', message: 'Give account_id or email, one of them.' }],
            'The invitation is not valid.',
          ),
        );
      const email = input.email?.trim().toLowerCase();
      const invitee = input.account_id?.toLowerCase() ?? null;
      if (invitee === principal.account.id)
        return errAsync(errors.validation([{ path: '/account_id', message: 'account_id must be another account.' }]));
      const now = clock.now();
      const at = isoTime(now);
      const expires = isoTime(now + (input.expires_in_days ?? INVITATION_DEFAULT_DAYS) * DAY);
      const id = newId(now);
      const sentSide: EntityRecord = {
        ...ENTITY_DEFAULTS,
        ...classes(input.role),
        id,
        owner_account_id: principal.account.id,
        name: input.name?.trim() ?? email ?? 'Invited account',
        pending: true,
        connected: input.role,
        connected_account_id: invitee,
        invitation_id: id,
        invitation_expires_at: expires,
        created_at: at,
        updated_at: at,
      };
      const invitees: ResultAsync<Account[], LeadrouteError> =
        email === undefined
          ? storage.accounts.get(invitee as Id).map((a) => (a ? [a] : []))
          : storage.accounts.findByEmail(email);
      const role = INVERSE[input.role];
      const receivedSide = (account: Account): EntityRecord => ({
        ...ENTITY_DEFAULTS,
        ...classes(role),
        id: newId(now),
        owner_account_id: account.id,
        name: principal.account.name,
        pending: true,
        connected: role,
        connected_account_id: principal.account.id,
        invitation_id: id,
        invitation_expires_at: expires,
        created_at: at,
        updated_at: at,
      });
      return storage.entities
        .insert(sentSide)
        .andThen(() => invitees)
        .andThen((accounts) =>
          // An unknown account gets nothing, and the inviter is answered the same: IDs and addresses cannot be probed.
          accounts
            .filter((a) => a.id !== principal.account.id)
            .reduce<ResultAsync<void, LeadrouteError>>(
              (acc, account) => acc.andThen(() => storage.entities.insert(receivedSide(account))),
              okAsync(undefined),
            ),
        )
        .andThen(() =>
          email === undefined ? okAsync(undefined) : tell(email, principal.account.name, input.role, id, expires),
        )
        .map(() => view(sentSide, now));
    },
    list(principal) {
      const now = clock.now();
      return storage.entities.listByOwner(principal.account.id).map((own) =>
        own
          .filter((e) => e.invitation_id !== null)
          .map((e) => view(e, now))
          .reverse(),
      );
    },
    accept: (principal, invitationId) => settle(principal, invitationId, true),
    decline: (principal, invitationId) => settle(principal, invitationId, false),
  };
}
