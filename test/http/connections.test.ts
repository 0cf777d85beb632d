import { scriptedRecipient } from '@leadroute/core';
import { memoryOutbox } from '@leadroute/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.7 account connections: invitations through the HTTP API on both bindings, on memory and PostgreSQL, and
// what each side, and an account outside the connection, can and cannot see or do.
const CASES = await stackCases('test/http/connections.test.ts');
const DAY = 86_400_000;

describe.each(CASES)('#24.7 account connections through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  let clock = Date.UTC(2026, 2, 10, 15);
  const outbox = memoryOutbox();
  const scripted = scriptedRecipient();
  scripted.respondWith({ outcome: 'success' });
  /** The buyer (demo), the seller (other) and an account outside (staff). */
  let ids: { buyer: string; seller: string; outsider: string };
  const req = (c: Call) => stack.req(c);
  const as = (key: string) => ({
    get: (path: string) => req({ path, key }),
    post: (path: string, json: unknown = {}) => req({ path, key, json }),
  });
  const accountOf = async (key: string) =>
    (await f.service.accounts.authenticate(key))._unsafeUnwrap().account.id as string;
  const buyerEntity = async (name: string, key: string) =>
    (await as(key).post('/entities', { name, module_ids: [], source: null, recipient: 'buyer' })).body.id as string;

  beforeAll(async () => {
    stack = await startStack(bindingName, storageName, {
      integrations: [scripted],
      clock: { now: () => clock },
      notifier: outbox,
    });
    f = stack.f;
    ids = {
      buyer: await accountOf(f.keys.demo),
      seller: await accountOf(f.keys.other),
      outsider: await accountOf(f.keys.staff),
    };
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('invites, shows each side a pending entity, connects on acceptance, and the seller then posts into the buyer’s flow', async () => {
    const buyer = as(f.keys.demo);
    const seller = as(f.keys.other);
    const invited = await buyer.post('/connections/invitations', {
      account_id: ids.seller,
      role: 'seller',
      name: 'East Leads',
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ direction: 'sent', status: 'pending', role: 'seller', name: 'East Leads' });
    const invitation = invited.body.invitation_id as string;
    // The seller sees a pending entity for the buyer, and the invitation.
    const received = (await seller.get('/connections/invitations')).body;
    expect(received).toEqual([
      expect.objectContaining({ invitation_id: invitation, direction: 'received', status: 'pending', role: 'buyer' }),
    ]);
    const theirEntity = (await seller.get(`/entities/${received[0].entity_id}`)).body;
    expect(theirEntity).toMatchObject({
      pending: true,
      connected: 'buyer',
      connected_account_id: ids.buyer,
      invitation_id: invitation,
      expired: false,
    });
    // Not usable while pending.
    const early = await buyer.post('/flows', { name: 'Too early', sources: [{ entity_id: invited.body.entity_id }] });
    expect(early.status).toBe(422);
    expect(early.body.errors[0].message).toMatch(/not connected/);
    // Accepted: both sides connected.
    const accepted = await seller.post(`/connections/invitations/${invitation}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'connected', role: 'buyer' });
    const ours = (await buyer.get(`/entities/${invited.body.entity_id}`)).body;
    expect(ours).toMatchObject({
      pending: false,
      connected: 'seller',
      connected_account_id: ids.seller,
      source: 'seller',
    });
    // Accepting twice is refused and changes nothing.
    expect((await seller.post(`/connections/invitations/${invitation}/accept`)).status).toBe(409);
    // The connected seller is now a source of the buyer's flow; its leads reach the buyer's recipient.
    const recipient = await buyerEntity('CRM', f.keys.demo);
    const flow = await buyer.post('/flows', {
      name: 'Connected',
      sources: [{ entity_id: invited.body.entity_id }],
      steps: [{ type: 'recipient', entity_id: recipient, module_id: scripted.id }],
    });
    expect(flow.status, flow.text).toBe(201);
    const posted = await req({
      path: `/flows/${flow.body.id}/sources/${invited.body.entity_id}/submit`,
      json: { email: 'a@b.co' },
    });
    expect(posted.body.outcome).toBe('success');
    // What the seller sees of it is the answer: the buyer's events stay the buyer's.
    const sellerEvents = (await seller.get('/events')).body as { flow_id: string }[];
    expect(sellerEvents.filter((e) => e.flow_id === flow.body.id)).toEqual([]);
    expect((await seller.get(`/flows/${flow.body.id}`)).status).toBe(404);
  });

  it('grants nothing to an account outside the connection, and answers guessed IDs with 404, changing nothing', async () => {
    const invited = await as(f.keys.demo).post('/connections/invitations', { account_id: ids.seller, role: 'both' });
    const invitation = invited.body.invitation_id as string;
    const outsider = as(f.keys.staff);
    expect(((await outsider.get('/connections/invitations')).body as unknown[]).length).toBe(0);
    for (const id of [invitation, invited.body.entity_id, '5fd4e3b7c1a2b3c4d5e6f701', 'nope']) {
      const accept = await outsider.post(`/connections/invitations/${id}/accept`);
      expect(accept.status).toBe(404);
      expect(accept.text).not.toContain(ids.buyer);
    }
    // Nor can the inviter accept its own invitation.
    expect((await as(f.keys.demo).post(`/connections/invitations/${invitation}/accept`)).status).toBe(404);
    // The outsider cannot use either side's entity in its flows.
    const theirs = await outsider.post('/flows', {
      name: 'Borrowed',
      sources: [{ entity_id: invited.body.entity_id }],
    });
    expect(theirs.status).toBe(422);
    // Still pending for the real invitee.
    expect((await as(f.keys.other).get('/connections/invitations')).body).toContainEqual(
      expect.objectContaining({ invitation_id: invitation, status: 'pending' }),
    );
  });

  it('leaves declined and expired invitations unconnected and unusable', async () => {
    const buyer = as(f.keys.demo);
    const seller = as(f.keys.other);
    const declined = await buyer.post('/connections/invitations', {
      account_id: ids.seller,
      role: 'buyer',
      name: 'West Buyer',
    });
    expect((await seller.post(`/connections/invitations/${declined.body.invitation_id}/decline`)).body.status).toBe(
      'declined',
    );
    expect((await buyer.get(`/entities/${declined.body.entity_id}`)).body).toMatchObject({
      pending: false,
      connected: null,
    });
    expect((await seller.post(`/connections/invitations/${declined.body.invitation_id}/accept`)).status).toBe(409);
    const stale = await buyer.post('/connections/invitations', {
      account_id: ids.seller,
      role: 'seller',
      expires_in_days: 1,
    });
    clock += DAY + 1;
    const late = await seller.post(`/connections/invitations/${stale.body.invitation_id}/accept`);
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/expired/);
    expect((await buyer.get(`/entities/${stale.body.entity_id}`)).body).toMatchObject({
      pending: false,
      expired: true,
    });
    expect((await buyer.get('/connections/invitations')).body).toContainEqual(
      expect.objectContaining({ invitation_id: stale.body.invitation_id, status: 'expired' }),
    );
    for (const entity of [declined.body.entity_id, stale.body.entity_id])
      expect((await buyer.post('/flows', { name: 'No', sources: [{ entity_id: entity }] })).status).toBe(422);
  });

  it('answers an invitation to an account that does not exist as any other, and refuses a bad body', async () => {
    const ghost = await as(f.keys.demo).post('/connections/invitations', {
      account_id: '5fd4e3b7c1a2b3c4d5e6f7ff',
      role: 'seller',
    });
    expect(ghost.status).toBe(201);
    expect(ghost.body).toMatchObject({ status: 'pending', direction: 'sent' });
    const bad = await as(f.keys.demo).post('/connections/invitations', {
      account_id: 'x',
      role: 'partner',
      expires_in_days: 99,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/account_id',
      '/expires_in_days',
      '/role',
    ]);
    const self = await as(f.keys.demo).post('/connections/invitations', { account_id: ids.buyer, role: 'seller' });
    expect(self.status).toBe(422);
  });
  it('invites by e-mail: the account with that notification address sees it, is told by e-mail, and connects', async () => {
    // The staff account plays the invited partner here: its notification address is the one invited.
    (await f.service.accounts.update(ids.outsider, { notification_email: 'Partners@Example.COM' }))._unsafeUnwrap();
    const invited = await as(f.keys.other).post('/connections/invitations', {
      email: 'partners@example.com',
      role: 'buyer',
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ direction: 'sent', status: 'pending', name: 'partners@example.com' });
    const mail = outbox.messages.find((m) => m.headers?.['X-Leadroute-Invitation'] === invited.body.invitation_id);
    expect(mail).toMatchObject({
      to: ['partners@example.com'],
      subject: expect.stringMatching(/invites you to connect/),
    });
    const partner = as(f.keys.staff);
    expect((await partner.get('/connections/invitations')).body).toContainEqual(
      expect.objectContaining({
        invitation_id: invited.body.invitation_id,
        direction: 'received',
        status: 'pending',
        role: 'seller',
      }),
    );
    const acceptedByEmail = await partner.post(`/connections/invitations/${invited.body.invitation_id}/accept`);
    expect(acceptedByEmail.status, acceptedByEmail.text).toBe(200);
    // The inviter's entity now names the account that accepted.
    expect((await as(f.keys.other).get(`/entities/${invited.body.entity_id}`)).body).toMatchObject({
      pending: false,
      connected: 'buyer',
      connected_account_id: ids.outsider,
      recipient: 'buyer',
    });
    // An address no account has: the same answer, and nothing for anyone.
    const before = ((await partner.get('/connections/invitations')).body as unknown[]).length;
    const nobody = await as(f.keys.other).post('/connections/invitations', {
      email: 'nobody@example.com',
      role: 'buyer',
    });
    expect(nobody.status).toBe(201);
    expect(((await partner.get('/connections/invitations')).body as unknown[]).length).toBe(before);
    // Exactly one of account_id and email.
    const both = await as(f.keys.other).post('/connections/invitations', {
      email: 'a@b.co',
      account_id: ids.buyer,
      role: 'buyer',
    });
    expect(both.status).toBe(422);
  });
});
