import { createLeadService, errors, type LeadService, type LeadWriteBundle, type StoreError } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { errAsync, ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// Idempotency-Key on intake (issue #18.11) and the 503 of a store outage (#18.10), on memory
// storage whose lead writes the test can hold back or fail, through both bindings.
describe.each(BINDINGS)('Idempotency-Key on submit through %s', (name) => {
  const storage = memoryStorage();
  /** While set, lead commits wait for it; each failure queued here fails one lead's commit instead. */
  let gate: Promise<void> | undefined;
  let held = 0;
  const failures: StoreError[] = [];
  const leadWrites = {
    commit: (bundle: LeadWriteBundle) => {
      // A lead's records are committed as one bundle (#18.12): hold back or fail the bundles that carry a lead.
      const commit = () => (storage.leadWrites as NonNullable<typeof storage.leadWrites>).commit(bundle);
      if (!bundle.lead) return commit();
      const failure = failures.shift();
      if (failure) return errAsync(failure);
      if (gate) held++;
      return ResultAsync.fromSafePromise(gate ?? Promise.resolve()).andThen(commit);
    },
  };
  let service: LeadService;
  let binding: Binding;
  let flowId: string;
  let sourceId: string;
  let apiKey: string;
  const submit = (lead: Record<string, unknown>, key?: string, headers: Record<string, string> = {}) =>
    call(binding.url, {
      path: `/flows/${flowId}/sources/${sourceId}/submit`,
      json: lead,
      headers: { ...headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  const storedLeads = (email: string) =>
    [...storage.tables.leads.values()].filter((l) => l.fields.email === email).length;

  beforeAll(async () => {
    service = createLeadService({ storage: { ...storage, leadWrites } });
    const { api_key } = (await service.accounts.create({ name: 'Idem' }))._unsafeUnwrap();
    apiKey = api_key;
    const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
    sourceId = (
      await service.entities.create(principal, { name: 'Vendor', module_ids: [], source: 'seller', recipient: null })
    )._unsafeUnwrap().id;
    flowId = (
      await service.flows.create(principal, { name: 'Idem', sources: [{ entity_id: sourceId }], steps: [] })
    )._unsafeUnwrap().id;
    binding = await startBinding(name, service);
  });
  afterAll(() => binding.close());

  it('#18.11 a retry with the same Idempotency-Key gets the first answer and makes no second lead', async () => {
    const lead = { first_name: 'Ida', email: `ida-${name}@example.com` };
    const first = await submit(lead, `key-${name}-1`);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await submit(lead, `key-${name}-1`);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // The replay is negotiated like any answer: the same result as XML.
    const xml = await submit(lead, `key-${name}-1`, { accept: 'application/xml' });
    expect(xml.status).toBe(201);
    expect(xml.text).toContain(`<id>${first.body.lead.id}</id>`);
    expect(storedLeads(lead.email)).toBe(1);
    // Without a key, or with another key, the same lead is a new submission.
    expect((await submit(lead, `key-${name}-2`)).body.lead.id).not.toBe(first.body.lead.id);
    expect((await submit(lead)).status).toBe(201);
    expect(storedLeads(lead.email)).toBe(3);
  });

  it("#18.11 a retry without the source's posting secret is refused as without a key, never answered from the stored first answer", async () => {
    const principal = (await service.accounts.authenticate(apiKey))._unsafeUnwrap();
    const secured = (
      await service.entities.create(principal, {
        name: 'Secured vendor',
        module_ids: [],
        source: 'seller',
        recipient: null,
      })
    )._unsafeUnwrap().id;
    const created = (
      await service.flows.create(principal, {
        name: 'Idem secured',
        sources: [{ entity_id: secured, require_posting_secret: true }],
        steps: [],
      })
    )._unsafeUnwrap();
    const secret = created.sources[0]?.posting_secret as string;
    const post = (headers: Record<string, string>) =>
      call(binding.url, {
        path: `/flows/${created.id}/sources/${secured}/submit`,
        json: { email: `sec-${name}@example.com` },
        headers,
      });
    const key = `key-${name}-secured`;
    const first = await post({ 'idempotency-key': key, 'x-posting-secret': secret });
    expect(first.status, first.text).toBe(201);
    const without = await post({ 'idempotency-key': key });
    expect(without.status, without.text).toBe(401);
    expect(without.text).not.toContain(first.body.lead.id);
    const wrong = await post({ 'idempotency-key': key, 'x-posting-secret': 'lps_wrong' });
    expect(wrong.status).toBe(401);
    const retry = await post({ 'idempotency-key': key, 'x-posting-secret': secret });
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('#18.11 the same key with a different body is refused with 422; a malformed key with 400', async () => {
    const key = `key-${name}-body`;
    expect((await submit({ email: `a-${name}@example.com` }, key)).status).toBe(201);
    const other = await submit({ email: `b-${name}@example.com` }, key);
    expect(other.status, other.text).toBe(422);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(storedLeads(`b-${name}@example.com`)).toBe(0);
    const bad = await submit({ email: `c-${name}@example.com` }, 'x'.repeat(256));
    expect(bad.status, bad.text).toBe(400);
    expect(storedLeads(`c-${name}@example.com`)).toBe(0);
  });

  it('#18.11 a duplicate arriving while the first is in flight gets 409, then the first answer', async () => {
    const lead = { email: `slow-${name}@example.com` };
    let open = () => {};
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const first = submit(lead, `key-${name}-slow`);
    // Wait until the first request holds the key: its lead insert is waiting at the gate.
    for (let i = 0; i < 500 && held === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(held).toBe(1);
    const duplicate = await submit(lead, `key-${name}-slow`);
    expect(duplicate.status, duplicate.text).toBe(409);
    gate = undefined;
    open();
    const answered = await first;
    expect(answered.status).toBe(201);
    const retry = await submit(lead, `key-${name}-slow`);
    expect(retry.body).toEqual(answered.body);
    expect(storedLeads(lead.email)).toBe(1);
  });

  it('#18.10 a store outage answers 503 problem+json with Retry-After; #18.11 the failed first attempt frees its key', async () => {
    const lead = { email: `outage-${name}@example.com` };
    failures.push(errors.storageUnavailable('[test] the database is unavailable.') as StoreError);
    const down = await submit(lead, `key-${name}-outage`);
    expect(down.status, down.text).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(down.body).toMatchObject({ status: 503, code: 'StorageUnavailable' });
    const retry = await submit(lead, `key-${name}-outage`);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(storedLeads(lead.email)).toBe(1);
  });

  it('#18.10 other store failures keep their 503 without Retry-After', async () => {
    failures.push(errors.storageFailure('[test] the statement was refused.') as StoreError);
    const res = await submit({ email: `refused-${name}@example.com` });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'StorageFailure' });
    expect(res.headers.get('retry-after')).toBeNull();
  });
});
