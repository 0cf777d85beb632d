import { describe, expect, it } from 'vitest';
import { HOUR, scenario } from './support';

describe('service.alerts.addActivity', () => {
  it("records what people do on an alert's timeline, customer or internal, and refuses bad entries", async () => {
    const s = await scenario();
    await s.normalWeek();
    const step = { kind: 'recipient' as const, recipient_id: s.recipientId };
    await s.traffic(0, [{ count: 40 }, { ...step, count: 10 }, { ...step, outcome: 'failure', count: 30 }]);
    s.clock.advance(HOUR);
    await s.detect();
    const [alert] = await s.alerts();
    const key = alert?.key ?? '';
    const actor = { type: 'user', id: 'u-7', name: 'Ann Lee' };
    s.clock.advance(60_000);
    (await s.service.alerts.addActivity(key, { kind: 'viewed', actor, source: 'ui' }))._unsafeUnwrap();
    s.clock.advance(60_000);
    (
      await s.service.alerts.addActivity(key, {
        kind: 'verification_started',
        actor: { type: 'system', id: 'verifier', name: 'Verifier' },
        source: 'collector',
        visibility: 'internal',
        data: { check: 'endpoint' },
      })
    )._unsafeUnwrap();
    (
      await s.service.alerts.addActivity(key, {
        kind: 'comment',
        actor,
        data: { text: 'Called the buyer' },
        at: '2026-01-15T16:30:00-05:00',
      })
    )._unsafeUnwrap();

    const entries = await s.timeline(key, 50);
    expect(entries.map((e) => e.kind)).toEqual(['comment', 'viewed', 'created']);
    expect(entries[0]).toEqual({
      at: '2026-01-15T21:30:00.000Z',
      kind: 'comment',
      actor,
      visibility: 'customer',
      source: 'api',
      data: { text: 'Called the buyer' },
    });
    // Operator staff see the internal entry (#19.6); an account, even one flagged staff, does not.
    const flagged = { ...s.principal, account: { ...s.principal.account, staff: true } };
    expect(
      (await s.service.alerts.activity(flagged, key, new URLSearchParams('limit=50')))
        ._unsafeUnwrap()
        .entries.map((e) => e.kind),
    ).toEqual(['comment', 'viewed', 'created']);
    const staff = { kind: 'operator' as const, staff: { id: 'staff-1', name: 'Ops' } };
    const all = (await s.service.alerts.activity(staff, key, new URLSearchParams('limit=50')))._unsafeUnwrap();
    expect(all.entries.map((e) => e.kind)).toEqual(['comment', 'verification_started', 'viewed', 'created']);

    const bad = [
      { kind: 'created', actor },
      { kind: 'shrug', actor },
      { kind: 'ack' },
      { kind: 'ack', actor, visibility: 'everyone' },
      { kind: 'ack', actor, source: 'email' },
      { kind: 'ack', actor, at: 'soon' },
    ];
    for (const entry of bad)
      expect(
        (await s.service.alerts.addActivity(key, entry as never))._unsafeUnwrapErr().type,
        JSON.stringify(entry),
      ).toBe('Validation');
    expect(
      (
        await s.service.alerts.addActivity(`recipient-failure:${s.accountId}:nope`, { kind: 'ack', actor })
      )._unsafeUnwrapErr().type,
    ).toBe('NotFound');
  });
});
