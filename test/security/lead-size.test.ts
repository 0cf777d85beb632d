import { createLeadService, DEFAULT_LEAD_LIMITS, type EntityCreateBody } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// A key-less lead of 100,000 fields (1.8 MB, well inside the 10 MB body limit) was copied field by field twice at
// intake (seconds in one turn of the event loop), then stored on every one of its events, so each later page of that
// account's events, each export and each search hit paid for it again. A lead now has at most 1,000 fields and
// 1,000,000 characters (DEFAULT_LEAD_LIMITS, `leadLimits` to change them); a larger one is refused with 400 and leaves
// nothing behind.

/** A lead of `n` fields, each `width` characters long. */
const wide = (n: number, width = 1) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, 'x'.repeat(width)]));

async function world(options: { leadLimits?: { fields?: number; characters?: number } } = {}) {
  const storage = memoryStorage();
  const service = createLeadService({ storage, exports: { worker: false }, ...options });
  const key = (await service.accounts.create({ name: 'Sizes' }))._unsafeUnwrap().api_key;
  const principal = (await service.accounts.authenticate(key))._unsafeUnwrap();
  const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
    (
      await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
    )._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const flow = (
    await service.flows.create(principal, { name: 'Any lead', sources: [{ entity_id: vendor }], steps: [] })
  )._unsafeUnwrap().id;
  return { storage, service, vendor, flow };
}

describe('a lead larger than the lead limits', () => {
  it('is refused in-process with 400 naming the limit, and nothing of it is stored', async () => {
    const { storage, service, vendor, flow } = await world();
    const refused = async (lead: Record<string, unknown>) =>
      (await service.leads.submit(flow, vendor, lead))._unsafeUnwrapErr();
    expect(await refused(wide(DEFAULT_LEAD_LIMITS.fields + 1))).toMatchObject({
      type: 'BadRequest',
      message: 'A lead has at most 1000 fields (keys and array items, nested ones included).',
    });
    // Nested fields and array items count too.
    expect((await refused({ nested: { items: Array.from({ length: 1000 }, (_, i) => i) } })).type).toBe('BadRequest');
    expect(await refused({ comments: 'x'.repeat(DEFAULT_LEAD_LIMITS.characters) })).toMatchObject({
      type: 'BadRequest',
      message: 'A lead has at most 1000000 characters in its field names and values together.',
    });
    expect(storage.tables.events.size).toBe(0);
    expect(storage.tables.leads.size).toBe(0);
    // At the limits, a lead goes through.
    expect((await service.leads.submit(flow, vendor, wide(DEFAULT_LEAD_LIMITS.fields))).isOk()).toBe(true);
    expect(
      (await service.leads.submit(flow, vendor, { comments: 'x'.repeat(DEFAULT_LEAD_LIMITS.characters - 8) })).isOk(),
    ).toBe(true);
    expect(storage.tables.leads.size).toBe(2);
  });

  it('is taken when leadLimits allow it', async () => {
    const { service, vendor, flow } = await world({ leadLimits: { fields: 5000 } });
    expect((await service.leads.submit(flow, vendor, wide(4000))).isOk()).toBe(true);
    expect(service.leadLimits).toEqual({ fields: 5000, characters: DEFAULT_LEAD_LIMITS.characters });
  });
});

describe.each(BINDINGS)('a key-less lead larger than the lead limits through %s', (name) => {
  let binding: Binding;
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
    binding = await startBinding(name, w.service);
  });
  afterAll(() => binding.close());

  it.each([
    ['JSON', 'application/json', (n: number) => JSON.stringify(wide(n))],
    ['form', 'application/x-www-form-urlencoded', (n: number) => new URLSearchParams(wide(n)).toString()],
  ] as const)('is refused as a %s body of 100,000 fields with 400, and stores nothing', async (_, type, body) => {
    const path = `/flows/${w.flow}/sources/${w.vendor}/submit`;
    const answer = await call(binding.url, { path, raw: body(100_000), headers: { 'content-type': type } });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.detail).toBe('The body has more than 1000 fields.');
    expect(w.storage.tables.events.size).toBe(0);
    const fits = await call(binding.url, { path, raw: body(1000), headers: { 'content-type': type } });
    expect(fits.status, fits.text).toBe(201);
    w.storage.tables.events.clear();
    w.storage.tables.leads.clear();
  });
});
