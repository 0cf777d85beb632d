import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCHEMAS } from '../http/schemas';
import { FLOW_LIMITS } from '../schemas/flows';
import { validateFlow } from './validate';

const ctx = { now: Date.UTC(2026, 0, 15), timeZone: 'America/Chicago' };
const VENDOR = '5f2b8c0e9d3a4b1c2d3e4f50';
const BUYER = '5f2b8c0e9d3a4b1c2d3e4f51';
const recipient = { type: 'recipient', entity_id: BUYER, module_id: 'platform-custom.outbound.json', config: {} };

const issues = (body: unknown) => {
  const result = validateFlow(body, ctx);
  return result.isErr() ? result.error : [];
};

describe('flow body: one schema (schemas/flows.ts), problems at their full path', () => {
  it('names a nested problem at its JSON pointer, in the words of the schema at that path', () => {
    const body = {
      name: 'Flow',
      sources: [{ entity_id: VENDOR, caps: [{ maximum: 10, duration_units: 'days' }, { maximum: -1 }] }],
      steps: [{ ...recipient, type: 'recipient ' }],
    };
    expect(issues(body)).toHaveLength(3);
    expect(issues(body)).toEqual(
      expect.arrayContaining([
        {
          path: '/sources/0/caps/1/maximum',
          message: `/sources/0/caps/1/maximum must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}.`,
        },
        {
          path: '/sources/0/caps/1/duration_units',
          message: '/sources/0/caps/1/duration_units must be one of minutes, hours, days, weeks, months.',
        },
        { path: '/steps/0/type', message: '/steps/0/type must be recipient or filter.' },
      ]),
    );
  });

  it('reports shape and rule-set problems in one answer', () => {
    const body = {
      steps: [{ ...recipient, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is eqal to' }] } }],
    };
    expect(issues(body).map((i) => i.path)).toEqual(['/name', '/steps/0/rule_set/rules/0/op']);
  });

  it('refuses an entry that is not an object once, not again for each of its fields', () => {
    expect(issues({ name: 'F', sources: ['x'] })).toEqual([
      { path: '/sources/0', message: '/sources/0 must be an object.' },
    ]);
    expect(issues({ name: 'F', steps: [{ ...recipient, pricing: 'cheap' }] })).toEqual([
      { path: '/steps/0/pricing', message: '/steps/0/pricing must be an object.' },
    ]);
  });

  it('bounds every list, so an oversized flow is refused by its shape', () => {
    const steps = Array.from({ length: FLOW_LIMITS.steps + 1 }, () => recipient);
    expect(issues({ name: 'F', steps })).toEqual([
      { path: '/steps', message: `/steps must be an array of at most ${FLOW_LIMITS.steps} items.` },
    ]);
  });

  it('keeps what only code can check: outbound modules, templates, a source named twice', () => {
    const body = {
      name: 'F',
      sources: [{ entity_id: VENDOR }, { entity_id: VENDOR.toUpperCase() }],
      steps: [
        { ...recipient, module_id: 'platform-custom.inbound.json' },
        { ...recipient, mappings: [{ property: 'x', value: '{{lead.x' }] },
      ],
    };
    expect(issues(body).map((i) => i.path)).toEqual([
      '/sources/1/entity_id',
      '/steps/0/module_id',
      '/steps/1/mappings/0/value',
    ]);
  });

  it('returns the stored form: IDs assigned, text trimmed, defaults filled, IDs lowercased', () => {
    const result = validateFlow(
      {
        name: '  Flow  ',
        ping_limits: [{ maximum: 5, duration_units: 'hours' }],
        sources: [{ entity_id: VENDOR.toUpperCase(), pricing: { prices: [{ amount: 3 }] } }],
        steps: [{ ...recipient, mappings: [{ property: ' phone ', value: 5 }] }],
      },
      ctx,
    );
    const flow = result._unsafeUnwrap();
    expect(flow.name).toBe('Flow');
    expect(flow.enabled).toBe(true);
    expect(flow.ping_limits?.[0]).toMatchObject({ name: 'Ping limit', duration: 1, time_zone: 'America/Chicago' });
    expect(flow.sources[0]).toMatchObject({ entity_id: VENDOR, pricing: { override: false, prices: [{ amount: 3 }] } });
    expect(flow.steps[0]?.mappings?.[0]).toMatchObject({ property: 'phone', value: '5' });
    expect(flow.steps[0]?.id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('never throws, and names every problem by a JSON pointer into the body, whatever it is sent', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.record({ name: fc.anything(), sources: fc.anything(), steps: fc.anything() }),
        (a, b) => {
          for (const body of [a, b]) {
            const result = validateFlow(body, ctx);
            if (result.isErr()) for (const issue of result.error) expect(issue.path).toMatch(/^(\/[^/]+)*$/);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is what the OpenAPI document shows', () => {
    const input = SCHEMAS.FlowInput as {
      properties: { steps: { maxItems: number; items: { properties: { type: { anyOf: { const: string }[] } } } } };
    };
    expect(input.properties.steps.maxItems).toBe(FLOW_LIMITS.steps);
    expect(input.properties.steps.items.properties.type.anyOf.map((v) => v.const)).toEqual(['recipient', 'filter']);
  });
});
