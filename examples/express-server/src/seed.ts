import { randomBytes } from 'node:crypto';
import { type LeadService, type Principal, type ScriptedRecipient, scriptedRecipient } from '@leadroute/core';

/** The demo callers: which environment variable names each key, and what kind of account it opens. */
const CALLERS = [
  { role: 'demo', env: 'LEADROUTE_API_KEY', name: 'Demo Leads', plan: 'paid', staff: false },
  { role: 'other', env: 'LEADROUTE_OTHER_API_KEY', name: 'Other Co', plan: 'paid', staff: false },
  { role: 'free', env: 'LEADROUTE_FREE_API_KEY', name: 'Free Trial', plan: 'free', staff: false },
  { role: 'staff', env: 'LEADROUTE_STAFF_API_KEY', name: 'Operator', plan: 'paid', staff: true },
] as const;

export type Role = (typeof CALLERS)[number]['role'];

/** Creates the four demo accounts (keys from the environment, random when unset) and a little demo data. */
export async function seed(service: LeadService, env: NodeJS.ProcessEnv): Promise<Record<Role, string>> {
  const keys = {} as Record<Role, string>;
  for (const caller of CALLERS) {
    const api_key = env[caller.env] || randomBytes(18).toString('base64url');
    const created = await service.accounts.create({
      name: caller.name,
      plan: caller.plan,
      staff: caller.staff,
      time_zone: 'America/New_York',
      api_key,
      user: { first_name: 'Demo', last_name: caller.role, email: `${caller.role}@example.com` },
    });
    if (created.isErr()) throw new Error(`[leadroute] cannot seed ${caller.role}: ${created.error.message}`);
    keys[caller.role] = created.value.api_key;
  }
  const demo = (await service.accounts.authenticate(keys.demo))._unsafeUnwrap() satisfies Principal;
  const buyer = await service.entities.create(demo, {
    name: 'Acme Insurance',
    description: 'A buyer of auto insurance leads',
    module_ids: ['platform-custom.outbound.json'],
    source: null,
    recipient: 'buyer',
    website: 'https://acme.example.com',
  });
  const vendor = await service.entities.create(demo, {
    name: 'Lead Vendor LLC',
    module_ids: [],
    source: 'seller',
    recipient: null,
  });
  if (buyer.isOk())
    (
      await service.aliases.create(demo, { entity_id: buyer.value.id, entity_alias: 'Acme (primary buyer)' })
    )._unsafeUnwrap();
  const demoBuyer = await service.entities.create(demo, {
    name: 'Demo Buyer',
    description: 'Accepts every lead (the demo module)',
    module_ids: [DEMO_MODULE],
    source: null,
    recipient: 'buyer',
  });
  if (vendor.isOk() && demoBuyer.isOk()) {
    const flow = await service.flows.create(demo, {
      name: 'Demo flow',
      acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.email', op: 'format is valid' }] },
      sources: [{ entity_id: vendor.value.id, pricing: { prices: [{ amount: 3 }] }, feedback: { enabled: true } }],
      steps: [
        {
          type: 'recipient',
          entity_id: demoBuyer.value.id,
          module_id: DEMO_MODULE,
          pricing: { override: false, prices: [{ amount: 12 }] },
          feedback: { enabled: true },
        },
      ],
    });
    if (flow.isErr()) throw new Error(`[leadroute] cannot seed the demo flow: ${flow.error.message}`);
  }
  return keys;
}

/** The demo buyer's module: accepts every lead, so the demo flow delivers without a network. */
// A scripted recipient, so a test module (`platform-test.outbound.*`: flows take any configuration for it).
export const DEMO_MODULE = 'platform-test.outbound.demo-accept';

/** An outbound module that accepts every lead with a reference of its own. */
export function demoBuyerModule(): ScriptedRecipient {
  const module = scriptedRecipient(DEMO_MODULE);
  let n = 0;
  module.respondWith(() => ({ outcome: 'success', reference: `DEMO-${++n}` }));
  return module;
}

export { CALLERS };
