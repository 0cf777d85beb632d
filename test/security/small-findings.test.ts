import { memoryFileStore } from '@leadroute/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

const UNKNOWN_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';

// Issue #18.18: the smaller findings, each through both bindings.
describe.each(BINDINGS)('issue #18.18 small findings through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  let vendor: string;
  let myFlow: string;
  let theirFlow: string;
  const req = (c: Call) => call(binding.url, c);
  const entity = { name: 'Listed', module_ids: [], source: 'seller', recipient: null };
  const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

  beforeAll(async () => {
    f = await createFixture({ fileStore: memoryFileStore() });
    binding = await startBinding(name, f.service);
    const make = async (key: string) => {
      const source = (await req({ path: '/entities', key, json: { ...entity, name: 'Vendor' } })).body.id as string;
      const acceptance_criteria = { op: 'and', rules: [{ lhv: 'lead.email', op: 'format is valid' }] };
      const flow = await req({
        path: '/flows',
        key,
        json: { name: 'Valid e-mails only', sources: [{ entity_id: source }], steps: [], acceptance_criteria },
      });
      expect(flow.status, flow.text).toBe(201);
      return { source, flow: flow.body.id as string };
    };
    ({ source: vendor, flow: myFlow } = await make(f.keys.demo));
    theirFlow = (await make(f.keys.other)).flow;
  });
  afterAll(() => binding.close());

  it('hands an unknown path on to the host, under the mount point too (here the framework’s own 404)', async () => {
    const answer = await req({ path: '/no-such-endpoint' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).not.toMatch(/problem\+json/);
  });

  it("#18.18 #19.12 an entity's flow_ids naming another account's flow or an unknown one answers alike and never shows either: flow_ids is derived", async () => {
    const foreign = await req({
      path: '/entities',
      key: f.keys.demo,
      json: { ...entity, flow_ids: [myFlow, theirFlow] },
    });
    const unknown = await req({ path: '/entities', key: f.keys.demo, json: { ...entity, flow_ids: [UNKNOWN_ID] } });
    // The same answer for a flow that exists elsewhere and one that does not: no existence oracle.
    expect([foreign.status, unknown.status]).toEqual([201, 201]);
    expect(foreign.body.flow_ids).toEqual([]);
    expect(unknown.body.flow_ids).toEqual([]);
    const update = await req({
      method: 'PUT',
      path: `/entities/${foreign.body.id}`,
      key: f.keys.demo,
      json: { flow_ids: [theirFlow] },
    });
    expect(update.status).toBe(200);
    expect(update.body.flow_ids).toEqual([]);
    expect((await req({ path: `/entities/${foreign.body.id}`, key: f.keys.demo })).body.flow_ids).not.toContain(
      theirFlow,
    );
  });

  it('#18.18 a lead whose e-mail has a 200,000-character local part (or 65 characters) is not a valid e-mail', async () => {
    const submit = (email: string) => req({ path: `/flows/${myFlow}/sources/${vendor}/submit`, json: { email } });
    const huge = await submit(`${'a'.repeat(200_000)}@example.com`);
    expect(huge.status, huge.text).toBe(201);
    expect(huge.body.outcome).toBe('failure');
    expect((await submit(`${'a'.repeat(65)}@example.com`)).body.outcome).toBe('failure');
    expect((await submit(`${'a'.repeat(64)}@example.com`)).body.outcome).toBe('success');
  });

  it('#18.18 an export to an address with a 65-character local part is 422', async () => {
    const body = { start: '2026-03-01T00:00:00Z', end: '2026-03-10T00:00:00Z', fields: ['id'] };
    const refused = await req({
      path: '/exports',
      key: f.keys.demo,
      json: { ...body, email_to: [`${'a'.repeat(65)}@example.com`] },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(paths(refused.body)).toEqual(['/email_to/0']);
    expect(
      (
        await req({
          path: '/exports',
          key: f.keys.demo,
          json: { ...body, email_to: [`${'a'.repeat(64)}@example.com`] },
        })
      ).status,
    ).toBe(201);
  });

  it('#18.18 an alias PUT naming no updatable field is 400 and changes nothing', async () => {
    const alias = (
      await req({ path: '/entity-aliases', key: f.keys.demo, json: { entity_id: vendor, entity_alias: 'Our vendor' } })
    ).body;
    for (const json of [{}, { alias: 'misspelt field' }, { id: UNKNOWN_ID, account_id: UNKNOWN_ID }]) {
      const res = await req({ method: 'PUT', path: `/entity-aliases/${alias.id}`, key: f.keys.demo, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'BadRequest' });
    }
    expect((await req({ path: `/entity-aliases/${alias.id}`, key: f.keys.demo })).body).toEqual(alias);
    expect(
      (
        await req({
          method: 'PUT',
          path: `/entity-aliases/${alias.id}`,
          key: f.keys.demo,
          json: { entity_alias: 'Renamed' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('#18.18 e-mail addresses outside HTTP use the same check', () => {
  it('#18.18 refuses an account user and alert recipients with an over-long local part', async () => {
    const f = await createFixture();
    const long = `${'a'.repeat(65)}@example.com`;
    const account = await f.service.accounts.create({ name: 'Long mail', user: { email: long } });
    expect(account._unsafeUnwrapErr()).toMatchObject({ type: 'Validation', issues: [{ path: '/user/email' }] });
    const ok = (
      await f.service.accounts.create({ name: 'Fine mail', user: { email: `${'a'.repeat(64)}@example.com` } })
    )._unsafeUnwrap();
    expect(
      (await f.service.alerts.settings.setAccountOverrides(ok.account.id, { email_to: [long] }))._unsafeUnwrapErr()
        .type,
    ).toBe('Validation');
    expect(
      (await f.service.alerts.settings.setAccountOverrides(ok.account.id, { email_to: ['ops@example.com'] })).isOk(),
    ).toBe(true);
  });
});
