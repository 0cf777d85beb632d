import { Kind, Type, TypeRegistry } from '@sinclair/typebox';
import type { RuleElement, RuleInput, RuleSetInput } from '../domain/rules';

const ref = (name: 'Rule' | 'RuleSet') => ({ $ref: `#/components/schemas/${name}` });
const ruleId = Type.String({ pattern: '^[0-9a-zA-Z]{6}$', description: 'Assigned by the server when absent.' });

/**
 * A rule (spec "Rule object"), as the OpenAPI document shows it. Whether its operator exists
 * and takes its rhv is the rules engine's to say (`validateRuleSet`, which also gives each rule
 * its ID and names each problem at its nested path): the operators a host installs are not known here.
 */
export const RuleSchema = Type.Object(
  {
    id: Type.Optional(ruleId),
    lhv: Type.String({ description: 'Dotted path into the context (lead.state, lead.phone_1.area) or a template.' }),
    op: Type.String({ description: 'An operator name: docs/operators.md.', examples: ['is equal to'] }),
    rhv: Type.Optional(
      Type.Union([
        Type.String(),
        Type.Number(),
        Type.Boolean(),
        Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
      ]),
    ),
    rule_set: Type.Optional(Type.Unsafe(ref('RuleSet'))),
  },
  { title: 'Rule', examples: [{ lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'OK'] }] },
);

/** A rule set (spec "Rule set object"): its rules ANDed or ORed; nests. */
export const RuleSetSchema = Type.Object(
  {
    id: Type.Optional(ruleId),
    op: Type.Union([Type.Literal('and'), Type.Literal('or')]),
    reason: Type.Optional(Type.String({ description: "Reported instead of the failed rules' own reasons." })),
    rules: Type.Array(Type.Unsafe({ oneOf: [ref('Rule'), ref('RuleSet')] }), { minItems: 1 }),
  },
  { title: 'RuleSet', examples: [{ op: 'and', rules: [{ lhv: 'lead.phone_1', op: 'format is valid' }] }] },
);

/**
 * Where a body holds rules. The body's validator lets any value through here; the rules
 * engine checks it (with the operators installed) once the body's shape is right, at the
 * path the schema walk finds it (`ruleValues`).
 */
export const RULES_KIND = 'LeadrouteRules';
export const RULE_SET_KIND = 'LeadrouteRuleSet';
TypeRegistry.Set(RULES_KIND, () => true);
TypeRegistry.Set(RULE_SET_KIND, () => true);

/** A list of rules and rule sets (ANDed), as the export filter and the events query take. */
export const rules = <T extends RuleElement | RuleInput | RuleSetInput>(description?: string) =>
  Type.Unsafe<readonly T[]>({
    [Kind]: RULES_KIND,
    type: 'array',
    items: { oneOf: [ref('Rule'), ref('RuleSet')] },
    ...(description === undefined ? {} : { description }),
  });

/** One rule set. */
export const ruleSet = (description?: string) =>
  Type.Unsafe<RuleSetInput>({ [Kind]: RULE_SET_KIND, ...ref('RuleSet'), ...(description ? { description } : {}) });
