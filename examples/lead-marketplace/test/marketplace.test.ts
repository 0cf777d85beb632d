import { describe, expect, it } from 'vitest';
import { runMarketplace } from '../src/main';

// What the README walks through, checked: `npm start -w examples/lead-marketplace` runs the same function.
describe('the lead marketplace example', () => {
  it('auctions a ping, sells the post to the winner in its format, refuses a duplicate, filters a bad phone and forwards the return', async () => {
    const lines: string[] = [];
    const run = await runMarketplace((line) => lines.push(line));
    expect(run.ping).toMatchObject({ outcome: 'success', price: 22, ping_id: expect.any(String) });
    expect(run.post).toMatchObject({ outcome: 'success', price: 22 });
    expect(run.deliveredTo).toEqual(['Bluebonnet Auto (form)']);
    // Delivered as a form, in normal forms: the e-mail lower-cased, the phone in E.164.
    expect(run.deliveredAs).toMatchObject({ email: 'nora@example.com', phone_1: '+15125550142', state: 'TX' });
    expect(run.duplicate).toMatchObject({ outcome: 'failure', reason: 'Duplicate lead' });
    expect(run.filtered).toMatchObject({ outcome: 'failure', reason: 'Invalid phone' });
    expect(run.feedback).toMatchObject({ outcome: 'success' });
    expect(run.forwardedToVendor).toEqual([expect.objectContaining({ type: 'return', reason: 'Disconnected number' })]);
    expect(lines.length).toBeGreaterThanOrEqual(6);
  }, 30_000);
});
