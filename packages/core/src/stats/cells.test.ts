import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../domain/events';
import { eventRows, rejectionCategory } from './cells';

describe('rejectionCategory', () => {
  it.each([
    ['success', 'Duplicate lead', ''],
    ['failure', 'Duplicate lead', 'duplicate'],
    ['failure', 'lead.email is a duplicate of a lead from the last 30 days', 'duplicate'],
    ['skip', 'Missing certificate', 'missing-certificate'],
    ['skip', 'missing consent certificate', 'missing-certificate'],
    ['failure', 'Certificate expired', 'certificate-failure'],
    ['error', 'TrustedForm certificate could not be claimed', 'certificate-failure'],
    ['failure', 'lead.email is not valid', 'invalid-email'],
    ['failure', 'Invalid E-mail address', 'invalid-email'],
    ['failure', 'lead.phone_1 is not valid', 'invalid-phone'],
    ['failure', 'lead.state is not included in TX, CA', ''],
    ['failure', '', ''],
  ] as const)('%s "%s" is "%s"', (outcome, reason, category) => {
    expect(rejectionCategory({ outcome, reason })).toBe(category);
  });
});

describe('eventRows', () => {
  const base = {
    id: 'e'.repeat(24),
    account_id: 'a'.repeat(24),
    flow_id: 'f'.repeat(24),
    source_id: 's'.repeat(24),
    lead_id: 'l'.repeat(24),
    start_timestamp: Date.parse('2026-03-08T07:59:59.999Z'),
    reason: '',
    vars: {},
  } as const;
  const ev = (o: Partial<StoredEvent>) => ({ ...base, ...o }) as StoredEvent;

  it('counts a source event in its UTC hour; an accepted lead costs its purchase price, a rejected one nothing', () => {
    expect(eventRows(ev({ type: 'source', outcome: 'success', purchase_price: 4 }))).toEqual([
      expect.objectContaining({
        hour: '2026-03-08T07:00:00.000Z',
        kind: 'source',
        outcome: 'success',
        recipient_id: '',
        count: 1,
        cost: 4,
        purchase_price: 4,
        revenue: 0,
        category: '',
      }),
    ]);
    expect(
      eventRows(ev({ type: 'source', outcome: 'failure', reason: 'Duplicate', purchase_price: 4 }))[0],
    ).toMatchObject({ cost: 0, purchase_price: 4, category: 'duplicate' });
  });

  it('charges a recipient step cost for attempts, not skips', () => {
    expect(
      eventRows(
        ev({ type: 'recipient', outcome: 'failure', recipient_id: 'r'.repeat(24), step_id: 'x', cost: 2, revenue: 0 }),
      )[0],
    ).toMatchObject({ kind: 'recipient', cost: 2, recipient_id: 'r'.repeat(24), step_id: 'x' });
    expect(
      eventRows(ev({ type: 'recipient', outcome: 'skip', recipient_id: 'r'.repeat(24), cost: 2 }))[0],
    ).toMatchObject({ cost: 0 });
  });

  it('maps feedback to its kind, with the conversion stage', () => {
    const fb = (type: 'conversion' | 'return') => ({
      type,
      reason: 'funded',
      occurred_at: '',
      event_id: 'e'.repeat(24),
    });
    expect(
      eventRows(ev({ type: 'feedback-received', outcome: 'success', feedback: fb('conversion') }))[0],
    ).toMatchObject({ kind: 'conversion-received', stage: 'funded' });
    expect(eventRows(ev({ type: 'feedback-received', outcome: 'success', feedback: fb('return') }))[0]).toMatchObject({
      kind: 'return-received',
      stage: '',
    });
    expect(eventRows(ev({ type: 'feedback-sent', outcome: 'error', feedback: fb('conversion') }))[0]).toMatchObject({
      kind: 'conversion-sent',
      outcome: 'error',
    });
    expect(eventRows(ev({ type: 'feedback-sent', outcome: 'success', feedback: fb('return') }))[0]).toMatchObject({
      kind: 'return-sent',
    });
  });

  it('adds a won-ping row for a post that won one', () => {
    const rows = eventRows(ev({ type: 'source', outcome: 'success' }), true);
    expect(rows.map((r) => [r.kind, r.outcome])).toEqual([
      ['source', 'success'],
      ['ping', 'won'],
    ]);
  });
});
