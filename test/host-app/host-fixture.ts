import {
  createLeadService,
  type EntityCreateBody,
  type LeadService,
  type Principal,
  scriptedRecipient,
} from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';

/**
 * A service with one account, a flow taking leads from a vendor and delivering them to
 * a buyer with feedback on, and the host's own sessions: `session-demo` belongs to the
 * account; the host maps it to a principal without ever holding the account's API key.
 */
export interface HostWorld {
  readonly service: LeadService;
  readonly accountId: string;
  readonly apiKey: string;
  readonly flowId: string;
  readonly sourceId: string;
  /** The host's authentication: its session token to a principal, or undefined. */
  principalOf(session: string | undefined): Promise<Principal | undefined>;
  /** The delivery event of the latest lead (what the buyer would send feedback with). */
  latestDelivery(): Promise<string>;
}

export async function hostWorld(): Promise<HostWorld> {
  const buyer = scriptedRecipient();
  buyer.respondWith({ outcome: 'success', reference: 'CRM-1' });
  const service = createLeadService({ storage: memoryStorage(), integrations: [buyer], exports: { worker: false } });
  const { account, api_key: apiKey } = (
    await service.accounts.create({ name: 'Host tenant', time_zone: 'America/Chicago' })
  )._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(apiKey))._unsafeUnwrap();
  const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
    (
      await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
    )._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const recipient = await entity({ name: 'Buyer', recipient: 'buyer' });
  const flow = (
    await service.flows.create(principal, {
      name: 'Host flow',
      sources: [{ entity_id: vendor }],
      steps: [{ type: 'recipient', entity_id: recipient, module_id: buyer.id, feedback: { enabled: true } }],
    })
  )._unsafeUnwrap();
  const sessions = new Map([['session-demo', account.id]]);
  return {
    service,
    accountId: account.id,
    apiKey,
    flowId: flow.id,
    sourceId: vendor,
    async principalOf(session) {
      const accountId = session === undefined ? undefined : sessions.get(session);
      if (accountId === undefined) return undefined;
      return (
        await service.accounts.principalFor(accountId, {
          first_name: 'Host',
          last_name: 'User',
          email: 'host@example.com',
        })
      ).unwrapOr(undefined);
    },
    async latestDelivery() {
      const events = (await service.events.list(principal, { type: 'recipient', limit: 1 }))._unsafeUnwrap();
      return (events[0] as { id: string }).id;
    },
  };
}

/** A request through a real socket: status, content type and parsed body (JSON when it is JSON). */
export async function call(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string; body: unknown }> {
  const res = await fetch(url, init);
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  return { status: res.status, type, body: type.includes('json') && text ? (JSON.parse(text) as unknown) : text };
}
