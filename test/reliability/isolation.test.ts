import { newId, scriptedRecipient } from '@leadroute/core';
import { memoryFileStore } from '@leadroute/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// Invariants, generated from the OpenAPI document (so every route the handler
// serves is covered, including routes added later): another account's IDs and
// keys answer exactly as unknown ones; lists never show another account's
// records; free accounts get 401 on every lead-bearing endpoint; no response
// or export carries a credential's secret.

interface Operation {
  responses: Record<string, { description: string }>;
  security?: unknown[];
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const SECRET = 'sUpEr-SeCrEt-PaSsWoRd-42';

describe.each(BINDINGS)('account isolation through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  let doc: Doc;
  /** The demo account's resource of each path parameter, by path prefix. */
  let owned: Record<string, string>;
  const buyer = scriptedRecipient();

  const req = (key: string | undefined, method: string, path: string, json?: unknown): Promise<Answer> =>
    call(binding.url, { method, path, ...(key === undefined ? {} : { key }), ...(json === undefined ? {} : { json }) });

  beforeAll(async () => {
    buyer.respondWith({ outcome: 'success', reference: 'REF-ISO' });
    f = await createFixture({ integrations: [buyer], fileStore: memoryFileStore() });
    binding = await startBinding(name, f.service);
    doc = (await req(undefined, 'GET', '/openapi.json')).body;
    const demo = f.keys.demo;
    const post = async (path: string, json: unknown) => (await req(demo, 'POST', path, json)).body;
    const principal = (await f.service.accounts.authenticate(demo))._unsafeUnwrap();
    const credentialId = newId(Date.now());
    (
      await f.service.storage.credentials.insert({
        id: credentialId,
        account_id: principal.account.id,
        name: 'Buyer login',
        type: 'user',
        package: null,
        username: 'buyer-user',
        password: SECRET,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
    )._unsafeUnwrap();
    const vendor = (await post('/entities', { name: 'Iso vendor', module_ids: [], source: 'seller', recipient: null }))
      .id;
    const recipient = (await post('/entities', { name: 'Iso buyer', module_ids: [], source: null, recipient: 'buyer' }))
      .id;
    const alias = (await post('/entity-aliases', { entity_id: recipient, entity_alias: 'Iso' })).id;
    const flow = (
      await post('/flows', {
        name: 'Iso flow',
        sources: [{ entity_id: vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: recipient,
            module_id: buyer.id,
            credential_id: credentialId,
            feedback: { enabled: true },
          },
        ],
      })
    ).id;
    const submitted = await req(undefined, 'POST', `/flows/${flow}/sources/${vendor}/submit`, {
      first_name: 'Isolde',
      email: 'isolde@example.com',
    });
    expect(submitted.body.outcome).toBe('success');
    expect(buyer.received.at(-1)?.credential?.password).toBe(SECRET);
    const event = (await req(demo, 'GET', '/events?type=recipient&limit=1')).body[0].id;
    const exported = (
      await post('/exports', {
        start: '2020-01-01T00:00:00Z',
        end: '2100-01-01T00:00:00Z',
        fields: ['id', 'vars', 'credential', 'transactions'],
      })
    ).id;
    await f.service.exports.runPending();
    (await f.service.alerts.detect(Date.now()))._unsafeUnwrap();
    const alertKey = (await req(demo, 'GET', '/alerts')).body[0]?.key as string;
    expect(alertKey, 'a new-source alert exists for the demo account').toBeDefined();
    owned = {
      '/entities/': recipient,
      '/entity-aliases/': alias,
      '/flows/': flow,
      '/events/': event,
      '/exports/': exported,
      '/alerts/': alertKey,
    };
  }, 60_000);
  afterAll(() => binding.close());

  const idFor = (template: string, pick: 'owned' | 'unknown'): string | undefined => {
    const prefix = Object.keys(owned).find((p) => template.startsWith(p));
    if (!prefix) return undefined;
    if (pick === 'owned') return owned[prefix];
    return prefix === '/alerts/' ? `new-source:${'a'.repeat(24)}:${'b'.repeat(24)}` : 'aaaaaaaaaaaaaaaaaaaaaaaa';
  };
  const fill = (template: string, id: string) =>
    template.replace(/\{[^}]+\}/, encodeURIComponent(id)).replace(/\{[^}]+\}/g, 'x');

  it("answers another account's IDs exactly as unknown ones, on every keyed route with an ID", async () => {
    let checked = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      if (!template.includes('{')) continue;
      for (const [method, op] of Object.entries(methods)) {
        if (!op.security || op.security.length === 0) continue; // open routes: feedback, intake, downloads
        const mine = idFor(template, 'owned');
        const unknown = idFor(template, 'unknown');
        if (!mine || !unknown) continue;
        const body = method === 'get' || method === 'delete' ? undefined : {};
        const theirs = await req(f.keys.other, method.toUpperCase(), fill(template, mine), body);
        const none = await req(f.keys.other, method.toUpperCase(), fill(template, unknown), body);
        expect(theirs.status, `${method} ${template}`).toBe(none.status);
        expect(theirs.body?.code, `${method} ${template}`).toBe(none.body?.code);
        // Byte for byte the same answer, but for the ID the caller itself sent.
        expect(
          theirs.text.replaceAll(encodeURIComponent(mine), '<id>').replaceAll(mine, '<id>'),
          `${method} ${template}`,
        ).toBe(none.text.replaceAll(encodeURIComponent(unknown), '<id>').replaceAll(unknown, '<id>'));
        const own = await req(f.keys.demo, 'GET', fill(template, mine));
        if (method === 'get') expect(own.status, `the owner reads ${template}`).toBeLessThan(300);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it("never lists another account's records", async () => {
    const lists = Object.entries(doc.paths).filter(
      ([template, methods]) =>
        !template.includes('{') && methods.get?.security?.length && template !== '/alerts/settings',
    );
    expect(lists.length).toBeGreaterThanOrEqual(6);
    for (const [template] of lists) {
      const res = await req(
        f.keys.other,
        'GET',
        template === '/search/leads' ? '/search/leads?query=isolde' : template,
      );
      for (const id of Object.values(owned))
        expect(res.text.includes(id), `GET ${template} shows the demo account's ${id}`).toBe(false);
      expect(res.text).not.toContain('Isolde');
    }
  });

  it('refuses free accounts with 401 on every lead-bearing endpoint', async () => {
    let checked = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!op.responses['401']?.description.includes('free account')) continue;
        const res = await req(
          f.keys.free,
          method.toUpperCase(),
          fill(template, idFor(template, 'owned') ?? 'aaaaaaaaaaaaaaaaaaaaaaaa'),
          method === 'get' ? undefined : {},
        );
        expect(res.status, `${method} ${template}`).toBe(401);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it("never shows a credential's secret in a response or an export", async () => {
    const seen: string[] = [];
    for (const [template, methods] of Object.entries(doc.paths)) {
      if (!methods.get?.security?.length) continue;
      const path = template.includes('{')
        ? fill(template, idFor(template, 'owned') ?? 'aaaaaaaaaaaaaaaaaaaaaaaa')
        : template;
      seen.push((await req(f.keys.demo, 'GET', path)).text);
    }
    const link = (await req(f.keys.demo, 'GET', `/exports/${owned['/exports/']}/file`)).body.url as string;
    const csv = await (
      await fetch(link.startsWith('http') ? link : `${binding.url}/exports/${owned['/exports/']}/${link}`)
    ).text();
    expect(csv.length).toBeGreaterThan(0);
    seen.push(csv);
    for (const text of seen) expect(text).not.toContain(SECRET);
    expect(seen.join('\n')).toContain('buyer-user');
  });
});
