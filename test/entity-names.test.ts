import { createLeadService, type EntityCreateBody, type Storage, scriptedRecipient } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { describe, expect, it } from 'vitest';

// The recipient's name on each step's event comes from the entity; the service keeps names by ID
// for as long as it keeps aliases (5 s), and forgets one at once when it renames that entity. The
// flow a lead is posted to and its account are kept the same way.
async function setUp() {
  let now = Date.parse('2026-03-01T12:00:00Z');
  const clock = { now: () => now };
  const base = memoryStorage();
  const reads: string[] = [];
  const storage: Storage = {
    ...base,
    accounts: {
      ...base.accounts,
      get: (id) => {
        reads.push(id);
        return base.accounts.get(id);
      },
    },
    entities: {
      ...base.entities,
      get: (id) => {
        reads.push(id);
        return base.entities.get(id);
      },
    },
    flows: {
      ...base.flows,
      get: (id) => {
        reads.push(id);
        return base.flows.get(id);
      },
    },
  };
  const recipient = scriptedRecipient();
  recipient.respondWith({ outcome: 'success' });
  const service = createLeadService({ storage, clock, integrations: [recipient], exports: { worker: false } });
  const { api_key } = (await service.accounts.create({ name: 'Names' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
    (
      await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
    )._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const buyer = await entity({ name: 'Buyer One', recipient: 'buyer' });
  const body = {
    name: 'Names',
    sources: [{ entity_id: vendor }],
    steps: [1, 2].map(() => ({ type: 'recipient' as const, entity_id: buyer, module_id: recipient.id })),
  };
  const flow = (await service.flows.create(principal, body))._unsafeUnwrap();
  const submit = async () => (await service.leads.submit(flow.id, vendor, { first_name: 'Ada' }))._unsafeUnwrap();
  const names = async () => {
    const lead = (await service.leads.submit(flow.id, vendor, { first_name: 'Ada' }))._unsafeUnwrap().lead.id;
    const events = (await service.events.list(principal, { type: 'recipient', limit: 100 }))._unsafeUnwrap();
    return events
      .filter((e) => e.lead_id === lead)
      .map((e) => (e.vars as { recipient?: { name?: string } }).recipient?.name);
  };
  return {
    service,
    principal,
    base,
    buyer,
    body,
    flow,
    reads,
    names,
    submit,
    tick: (ms: number) => void (now += ms),
  };
}

describe('entity names on events', () => {
  it('reads a recipient entity once for many leads and steps, not once per step', async () => {
    const { buyer, reads, names } = await setUp();
    reads.length = 0;
    for (let i = 0; i < 5; i++) expect(await names()).toEqual(['Buyer One', 'Buyer One']);
    expect(reads.filter((id) => id === buyer)).toHaveLength(1);
  });

  it("reads the flow's account once for many leads, and sees its new time zone at once after an update here", async () => {
    const { service, principal, reads, names } = await setUp();
    await names();
    reads.length = 0;
    for (let i = 0; i < 5; i++) await names();
    expect(reads.filter((id) => id === principal.account.id)).toHaveLength(0);
    (await service.accounts.update(principal.account.id, { time_zone: 'Asia/Tokyo' }))._unsafeUnwrap();
    reads.length = 0;
    await names();
    expect(reads.filter((id) => id === principal.account.id)).toHaveLength(1);
  });

  it("shows a rename made through this service at once, and another instance's within 5 s", async () => {
    const { service, principal, base, buyer, names, tick } = await setUp();
    expect(await names()).toEqual(['Buyer One', 'Buyer One']);
    (await service.entities.update(principal, buyer, { name: 'Buyer Two' }))._unsafeUnwrap();
    expect(await names()).toEqual(['Buyer Two', 'Buyer Two']);

    // Another instance renames it in the shared storage: this one sees it once its copy is 5 s old.
    const record = (await base.entities.get(buyer))._unsafeUnwrap();
    if (!record) throw new Error('the entity is stored');
    (await base.entities.update({ ...record, name: 'Buyer Three' }))._unsafeUnwrap();
    tick(5_001);
    expect(await names()).toEqual(['Buyer Three', 'Buyer Three']);
  });

  it('reads the flow once for many leads, and a refused ID every time', async () => {
    const { flow, reads, submit, service } = await setUp();
    await submit();
    reads.length = 0;
    for (let i = 0; i < 5; i++) expect((await submit()).outcome).toBe('success');
    expect(reads.filter((id) => id === flow.id)).toHaveLength(0);
    // An ID that names no flow is not kept: a caller walking posting URLs reads the store each time, and fills nothing.
    const unknown = '0'.repeat(8) + flow.id.slice(8);
    for (let i = 0; i < 3; i++) expect((await service.leads.submit(unknown, flow.id, {})).isErr()).toBe(true);
    expect(reads.filter((id) => id === unknown)).toHaveLength(3);
  });

  it('#22 reads the flow and its account once for many feedback calls, as it does for leads', async () => {
    const { service, principal, body, reads } = await setUp();
    const steps = body.steps.map((step) => ({ ...step, feedback: { enabled: true } }));
    const flow = (await service.flows.create(principal, { ...body, steps }))._unsafeUnwrap();
    const vendor = body.sources[0]?.entity_id ?? '';
    (await service.leads.submit(flow.id, vendor, { first_name: 'Ada' }))._unsafeUnwrap();
    const events = (await service.events.list(principal, { type: 'recipient', limit: 10 }))._unsafeUnwrap();
    reads.length = 0;
    for (const { id } of events as { id: string }[])
      expect(await service.feedback.submit(id, { type: 'conversion' })).toMatchObject({
        value: { outcome: 'success' },
      });
    expect(events).toHaveLength(2);
    expect(reads.filter((id) => id === flow.id || id === principal.account.id)).toEqual([]);
  });

  it("shows a flow update made through this service at once, and another instance's within 5 s", async () => {
    const { service, principal, base, body, flow, submit, tick } = await setUp();
    expect((await submit()).outcome).toBe('success');
    (await service.flows.update(principal, flow.id, { ...body, enabled: false }))._unsafeUnwrap();
    expect(await submit()).toMatchObject({ outcome: 'failure', reason: 'The flow is disabled.' });

    // Another instance enables it again in the shared storage: this one sees it once its copy is 5 s old.
    const record = (await base.flows.get(flow.id))._unsafeUnwrap();
    if (!record) throw new Error('the flow is stored');
    (
      await base.flows.update({ ...record, enabled: true, version: record.version + 1 }, record.version)
    )._unsafeUnwrap();
    tick(4_000);
    expect((await submit()).outcome).toBe('failure');
    tick(1_001);
    expect((await submit()).outcome).toBe('success');
  });

  it('forgets a flow that another instance changed when an update here finds it stale', async () => {
    const { service, principal, base, body, flow, submit } = await setUp();
    expect((await submit()).outcome).toBe('success');
    const record = (await base.flows.get(flow.id))._unsafeUnwrap();
    if (!record) throw new Error('the flow is stored');
    (
      await base.flows.update({ ...record, enabled: false, version: record.version + 1 }, record.version)
    )._unsafeUnwrap();
    expect((await submit()).outcome).toBe('success');
    // This service's update names the version it read; the store is past it, so it is refused, and the flow re-read.
    const refused = await service.flows.update(principal, flow.id, { ...body, version: record.version });
    expect(refused.isErr()).toBe(true);
    expect(await submit()).toMatchObject({ outcome: 'failure', reason: 'The flow is disabled.' });
  });
});
