import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createFeedbackIntegrationRegistry, deliversFor, standardFeedbackIntegration } from './integrations';
import type { InboundFeedbackModule } from './types';

const module = (id: string, extra: Partial<InboundFeedbackModule> = {}): InboundFeedbackModule => ({
  id,
  package_version: '1.0.0',
  parse: () => ok({}),
  ...extra,
});

describe('inbound feedback integrations', () => {
  it('serves standard built in and host modules by name, case-insensitively', () => {
    const acme = module('platform-Acme.inbound.feedback');
    const registry = createFeedbackIntegrationRegistry([acme]);
    expect(registry.get('STANDARD')?.id).toBe('platform-standard.inbound.feedback');
    expect(registry.get('acme')).toBe(acme);
    expect(registry.get('ACME')).toBe(acme);
    expect(registry.get('nobody')).toBeUndefined();
    expect(registry.ids).toEqual(['platform-standard.inbound.feedback', 'platform-Acme.inbound.feedback']);
  });

  it('lets a host module replace standard, and refuses IDs of another shape', () => {
    const mine = module('platform-standard.inbound.feedback');
    expect(createFeedbackIntegrationRegistry([mine]).get('standard')).toBe(mine);
    expect(() => createFeedbackIntegrationRegistry([module('platform-acme.outbound.json')])).toThrow(
      /platform-<name>\.inbound\.feedback/,
    );
    expect(() => createFeedbackIntegrationRegistry([module('acme.inbound.feedback')])).toThrow(TypeError);
  });

  it('standard reads the four fields and refuses a body that is not an object', () => {
    const standard = standardFeedbackIntegration();
    expect(
      standard
        .parse({ type: 'return', reason: 'x', occurred_at: '2026-01-01', recipient_record_id: 'R-1', extra: 1 })
        ._unsafeUnwrap(),
    ).toEqual({
      type: 'return',
      reason: 'x',
      occurred_at: '2026-01-01',
      recipient_record_id: 'R-1',
    });
    expect(standard.parse(undefined)._unsafeUnwrap()).toEqual({});
    expect(standard.parse(['x']).isErr()).toBe(true);
  });

  it('matches deliveries: standard any module, others their own integration unless they say otherwise', () => {
    expect(deliversFor(standardFeedbackIntegration(), 'platform-custom.outbound.json')).toBe(true);
    const acme = module('platform-acme.inbound.feedback');
    expect(deliversFor(acme, 'platform-ACME.outbound.leads')).toBe(true);
    expect(deliversFor(acme, 'platform-acmecorp.outbound.leads')).toBe(false);
    expect(deliversFor(acme, undefined)).toBe(false);
    expect(
      deliversFor(
        module('platform-acme.inbound.feedback', { delivers: (id) => id === 'platform-custom.outbound.json' }),
        'platform-custom.outbound.json',
      ),
    ).toBe(true);
  });
});
