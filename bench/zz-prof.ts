import { compileRuleSet, createLeadService, scriptedRecipient, typeLead, validateRuleSet } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';

// Leads per second through service.leads.submit on memory storage, with a
// three-step flow (a filter, a priced and mapped recipient, a capped recipient)
// and an in-memory recipient; against a hand-written pipeline doing the same
// parse, criteria check and three in-memory writes with none of the service.
const lead = (i: number) => ({
  first_name: 'Ada',
  last_name: `Lovelace${i}`,
  email: `ada${i}@example.com`,
  phone_1: '512-555-0142',
  state: i % 2 ? 'TX' : 'CA',
  postal_code: '78701',
  loan_amount: String(1000 + (i % 50) * 100),
});

/** A service with the three-step flow, on the given storage. */
async function setUp(storage: Parameters<typeof createLeadService>[0]['storage']) {
  const recipient = scriptedRecipient();
  recipient.respondWith({ outcome: 'success', price: 4, reference: 'R' });
  const service = createLeadService({ storage, integrations: [recipient], host: 'bench', exports: { worker: false } });
  const { api_key } = (await service.accounts.create({ name: 'Bench', time_zone: 'America/Chicago' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const entity = async (body: object) => (await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body }))._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
  const acceptance = { op: 'and', rules: [{ lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA'] }, { lhv: 'lead.email', op: 'format is valid' }] };
  const flow = (
    await service.flows.create(principal, {
      name: 'Bench flow',
      fields: [{ id: 'lead.loan_amount', type: 'number' }],
      acceptance_criteria: acceptance,
      sources: [{ entity_id: vendor, pricing: { prices: [{ amount: 2 }] } }],
      steps: [
        { type: 'filter', entity_id: buyer, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'NY' }] } },
        {
          type: 'recipient',
          entity_id: buyer,
          module_id: recipient.id,
          rule_set: { op: 'and', rules: [{ lhv: 'lead.loan_amount', op: 'is greater than', rhv: 500 }] },
          pricing: { override: false, prices: [{ amount: 10 }, { amount: 15, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] } }] },
          mappings: [{ property: 'name', value: '{{ lead.first_name }} {{ lead.last_name }}' }],
        },
        { type: 'recipient', entity_id: buyer, module_id: recipient.id, caps: [{ name: 'Big', maximum: 1_000_000_000, duration: 1, duration_units: 'days' }] },
      ],
    })
  )._unsafeUnwrap();

  return { service, flow, vendor, recipient, acceptance, principal };
}


const st = memoryStorage();
import { okAsync } from 'neverthrow';
const mode = process.env.MODE;
if (mode === 'nosearch' || mode === 'none') (st.search as { index: unknown }).index = () => okAsync(undefined);
if (mode === 'norollup' || mode === 'none') (st.rollups as { add: unknown }).add = () => okAsync(undefined);
const { service, flow, vendor, principal: p0 } = await setUp(st);
let n = 0;
for (let i = 0; i < 2000; i++) await service.leads.submit(flow.id, vendor, lead(n++));
const t = performance.now();
for (let i = 0; i < 10000; i++) {
  const r = await service.leads.submit(flow.id, vendor, lead(n++));
  if (r.isErr()) throw new Error('x');
}
console.log('leads/s', 10000 / ((performance.now() - t) / 1000));
const storage = (service as unknown as { deps?: unknown });
const principal = undefined;
globalThis.gc?.();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 10000; i++) await service.leads.submit(flow.id, vendor, lead(n++));
globalThis.gc?.();
console.log('KB per lead', (process.memoryUsage().heapUsed - before) / 10000 / 1024);
const { api_key } = (await service.accounts.create({ name: 'X' }))._unsafeUnwrap();
const evs = (await service.events.list(p0, { limit: 4 }))._unsafeUnwrap();
for (const e of evs) console.log(e.type, JSON.stringify(e).length, Object.entries(e).map(([k, v]) => `${k}:${JSON.stringify(v)?.length}`).join(' '));
