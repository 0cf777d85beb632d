import { describe, expect, it } from 'vitest';
import { createIntegrationRegistry } from '../integrations';
import { BUILTIN_OPERATOR_NAMES, BUILTIN_OPERATORS, type BuiltinOperatorName } from '../rules';
import type { FlowUpdateBody } from '../schemas/flows';
import { allOf, anyOf, defineFlow, type OutboundModuleId, rule, type TypedFlowUpdate } from './builder';

/**
 * A typed flow is a refinement of the flow body's schema (`schemas/flows.ts`, the one definition the validator and
 * OpenAPI use): this test file fails to compile if they drift apart. Here, not in builder.ts: exported from there, the
 * check went into the published declarations, where a host compiling with exactOptionalPropertyTypes got its error.
 */
type Refines<T extends U, U> = T;

type BuiltInModuleId = Exclude<OutboundModuleId, `platform-test.outbound.${string}`>;

describe('typed flows', () => {
  it('are a refinement of the flow body schema (checked when this file compiles)', () => {
    const update: Refines<TypedFlowUpdate, FlowUpdateBody> = { name: 'Checked', sources: [], steps: [] };
    expect(update.name).toBe('Checked');
  });

  it('names every built-in operator, with its arity, as the registry does', () => {
    expect(BUILTIN_OPERATOR_NAMES).toEqual(BUILTIN_OPERATORS.map((operator) => operator.name));
    // Every name of the union, each exactly once: adding an operator without a name here does not compile.
    const arity: Record<BuiltinOperatorName, 'unary' | 'binary'> = Object.fromEntries(
      BUILTIN_OPERATORS.map((operator) => [operator.name, operator.arity]),
    ) as Record<BuiltinOperatorName, 'unary' | 'binary'>;
    expect(Object.keys(arity).sort()).toEqual([...BUILTIN_OPERATOR_NAMES].sort());
  });

  it('types the configuration of every built-in outbound module', () => {
    // A record over the typed module IDs: a built-in module the types do not know, or a typed ID no module has, fails.
    const typed: Record<BuiltInModuleId, true> = {
      'platform-custom.outbound.json': true,
      'platform-custom.outbound.form': true,
      'platform-custom.outbound.xml': true,
      'platform-custom.outbound.get': true,
      'platform-certificate.outbound.claim': true,
    };
    const installed = createIntegrationRegistry([], { certificates: { claim: () => undefined as never } }).outboundIds;
    expect([...installed].sort()).toEqual(Object.keys(typed).sort());
  });

  it('builds the plain body the API takes', () => {
    const flow = defineFlow({
      name: 'Auto',
      acceptance_criteria: allOf(
        rule('lead.state', 'is included in', ['TX', 'OK']),
        anyOf(rule('lead.phone_1', 'format is valid'), rule('lead.email', 'is not blank')),
      ),
      sources: [{ entity_id: 'a'.repeat(24), caps: [{ maximum: 10, duration_units: 'days' }] }],
      steps: [
        {
          type: 'recipient',
          entity_id: 'b'.repeat(24),
          module_id: 'platform-custom.outbound.json',
          config: { url: 'https://buyer.example.com/leads', outcome_path: 'result' },
          mappings: [{ property: 'phone', value: '{{ lead.phone_1 }}' }],
        },
        { type: 'filter', entity_id: 'b'.repeat(24), rule_set: allOf(rule('lead.state', 'is equal to', 'OK')) },
      ],
    });
    expect(flow.acceptance_criteria).toEqual({
      op: 'and',
      rules: [
        { lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'OK'] },
        {
          op: 'or',
          rules: [
            { lhv: 'lead.phone_1', op: 'format is valid' },
            { lhv: 'lead.email', op: 'is not blank' },
          ],
        },
      ],
    });
    // That the service accepts it unchanged is tested through the testkit (packages/testkit/src/flows.test.ts).
  });
});
