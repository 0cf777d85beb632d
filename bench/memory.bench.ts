import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLeadService, type EntityCreateBody, scriptedRecipient } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { atMost, type Bench } from './harness';

// #22.9: what the memory adapter holds per stored lead with its four events (a source event,
// a filter, two deliveries), its search entry and its rollups: heap growth over 20,000 leads
// after full collections. Beside it, the same records as JSON, what a compact store would keep.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const LEADS = 20_000;
const lead = (i: number) => ({
  first_name: 'Ada',
  last_name: `Lovelace${i}`,
  email: `ada${i}@example.com`,
  phone_1: '512-555-0142',
  state: i % 2 ? 'TX' : 'OK',
  postal_code: '78701',
  loan_amount: String(1000 + i),
});

const bench: Bench = async () => {
  const recipient = scriptedRecipient();
  recipient.respondWith({ outcome: 'success', price: 4, reference: 'R' });
  const storage = memoryStorage();
  const service = createLeadService({ storage, integrations: [recipient], host: 'bench', exports: { worker: false } });
  const { api_key } = (await service.accounts.create({ name: 'Bench', time_zone: 'America/Chicago' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
    (
      await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
    )._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
  const flow = (
    await service.flows.create(principal, {
      name: 'Memory',
      sources: [{ entity_id: vendor }],
      steps: [
        {
          type: 'filter',
          entity_id: buyer,
          rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'NY' }] },
        },
        {
          type: 'recipient',
          entity_id: buyer,
          module_id: recipient.id,
          mappings: [{ property: 'name', value: '{{ lead.first_name }} {{ lead.last_name }}' }],
        },
        { type: 'recipient', entity_id: buyer, module_id: recipient.id },
      ],
    })
  )._unsafeUnwrap();
  const submit = async (i: number) => {
    const result = await service.leads.submit(flow.id, vendor, lead(i));
    if (result.isErr() || result.value.outcome !== 'success') throw new Error('a lead was not delivered');
    // The scripted recipient keeps what it received: that is the test double's memory, not the store's.
    recipient.received.length = 0;
    return result.value.lead.id;
  };
  for (let i = 0; i < 500; i++) await submit(i);
  const before = heap();
  const ids: string[] = [];
  for (let i = 0; i < LEADS; i++) ids.push(await submit(1000 + i));
  const perLead = (heap() - before) / LEADS / 1024;
  // The baseline: the same leads and events as JSON text (UTF-8 bytes), sampled.
  let json = 0;
  const sample = ids.filter((_, i) => i % 100 === 0);
  for (const id of sample) {
    const stored = storage.tables.leads.get(id);
    const events = [...storage.tables.events.values()].filter((e) => e.lead_id === id);
    json +=
      Buffer.byteLength(JSON.stringify(stored)) + events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)), 0);
  }
  const jsonPerLead = json / sample.length / 1024;
  await service.close();
  return [
    atMost(
      'memory: heap per stored lead with its four events, search entry and rollups (memory adapter)',
      'KB',
      perLead,
      { name: 'the same lead and events as JSON text', value: jsonPerLead },
      5,
    ),
  ];
};

export default bench;
