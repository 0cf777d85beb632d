import {
  type CompiledRuleSet,
  type CompiledTemplate,
  compileRuleSet,
  compileTemplate,
  type FieldDeclaration,
  isParsedValue,
  type RuleSet,
} from '../rules';
import type { Cap, FlowRecord, FlowSource, FlowStep, Mapping, Pricing } from '../domain/flows';

/** A cap with its rule set compiled: only leads it matches count against it. */
export interface CompiledCap {
  readonly cap: Cap;
  readonly applies: CompiledRuleSet | undefined;
}

/** Pricing compiled: the last matching price, or undefined when none matches. */
export interface CompiledPricing {
  readonly override: boolean;
  price(ctx: Record<string, unknown>, env: Env): number | undefined;
}

export interface CompiledMapping {
  readonly mapping: Mapping;
  /** Send what was received instead of the normal form. */
  readonly raw: boolean;
  readonly property: string;
  readonly value: CompiledTemplate;
  readonly applies: CompiledRuleSet | undefined;
}

/** A source, flow or recipient as events and rules name it. */
export interface NameTag {
  readonly id: string;
  readonly name: string;
}

/**
 * `{ id, name }` for the entity `id`: the same object for every lead while the name stays the same. Every event of a
 * lead names its flow and source, and a recipient event its recipient; one object each per lead was 40 bytes apiece of
 * every stored lead's heap on memory storage (#22.9). Events are never changed in place, so they can share it.
 */
export function nameTag(id: string): (name: string) => NameTag {
  let last: NameTag | undefined;
  return (name) => {
    if (last?.name !== name) last = { id, name };
    return last;
  };
}

export interface CompiledSource {
  readonly source: FlowSource;
  /** The source as its leads' events name it, given the entity's name. */
  readonly tag: (name: string) => NameTag;
  /** The answer the source expects, rendered from the intake result and the lead (#24.4). */
  readonly response: ((ctx: Record<string, unknown>, env: Env) => Record<string, unknown>) | undefined;
  readonly acceptance: CompiledRuleSet | undefined;
  readonly caps: readonly CompiledCap[];
  readonly pricing: CompiledPricing | undefined;
}

export interface CompiledStep {
  readonly step: FlowStep;
  /** The recipient as the step's events name it, given the entity's name. */
  readonly tag: (name: string) => NameTag;
  readonly rule: CompiledRuleSet | undefined;
  readonly caps: readonly CompiledCap[];
  readonly pricing: CompiledPricing | undefined;
  readonly mappings: readonly CompiledMapping[];
}

/** A flow version turned into closures once, so a lead never re-parses configuration. */
export interface CompiledFlow {
  readonly flow: FlowRecord;
  /** The flow as its leads' events name it. */
  readonly tag: NameTag;
  readonly fields: readonly FieldDeclaration[];
  readonly acceptance: CompiledRuleSet | undefined;
  readonly sources: ReadonlyMap<string, CompiledSource>;
  readonly steps: readonly CompiledStep[];
}

type Env = { readonly now: number; readonly timeZone: string };

const compileOptional = (ruleSet: RuleSet | undefined): CompiledRuleSet | undefined =>
  ruleSet ? compileRuleSet(ruleSet) : undefined;

function compileCaps(caps: readonly Cap[] | undefined): CompiledCap[] {
  return (caps ?? []).map((cap) => ({ cap, applies: compileOptional(cap.rule_set) }));
}

function compilePricing(pricing: Pricing | undefined): CompiledPricing | undefined {
  if (!pricing || pricing.prices.length === 0) return undefined;
  const prices = pricing.prices.map((p) => ({ amount: p.amount, applies: compileOptional(p.rule_set) }));
  return {
    override: pricing.override,
    price(ctx, env) {
      // Last match wins: scan from the end and stop at the first match.
      for (let i = prices.length - 1; i >= 0; i--) {
        const p = prices[i] as (typeof prices)[number];
        if (!p.applies || p.applies(ctx, env).pass) return p.amount;
      }
      return undefined;
    },
  };
}

function compileMappings(mappings: readonly Mapping[] | undefined): CompiledMapping[] {
  return (mappings ?? []).map((mapping) => ({
    mapping,
    property: mapping.property.startsWith('lead.') ? mapping.property.slice(5) : mapping.property,
    raw: mapping.raw === true,
    value: compileTemplate(mapping.value),
    applies: compileOptional(mapping.rule_set),
  }));
}

function compileResponse(template: Readonly<Record<string, string>> | undefined): CompiledSource['response'] {
  if (!template) return undefined;
  const fields = Object.entries(template).map(([name, source]) => [name, compileTemplate(source)] as const);
  return (ctx, env) => {
    const out: Record<string, unknown> = {};
    for (const [name, render] of fields) out[name] = plainValue(render(ctx, env)) ?? '';
    return out;
  };
}

/**
 * Compiles a validated flow. Its rule sets, mappings and pricing go into every event of its leads as they are: the
 * memory adapter keeps a lead's events as handed over, so they share them. (They are not frozen: JSON.stringify takes
 * a frozen array off its fast path, and every event with them took half as long again to encode, #22.)
 */
export function compileFlow(flow: FlowRecord): CompiledFlow {
  return {
    flow,
    tag: { id: flow.id, name: flow.name },
    fields: flow.fields,
    acceptance: compileOptional(flow.acceptance_criteria),
    sources: new Map(
      flow.sources.map((source) => [
        source.entity_id,
        {
          source,
          tag: nameTag(source.entity_id),
          acceptance: compileOptional(source.acceptance_criteria),
          caps: compileCaps(source.caps),
          pricing: compilePricing(source.pricing),
          response: compileResponse(source.response_template),
        },
      ]),
    ),
    steps: flow.steps.map((step) => ({
      step,
      tag: nameTag(step.entity_id),
      rule: compileOptional(step.rule_set),
      caps: compileCaps(step.caps),
      pricing: compilePricing(step.pricing),
      mappings: compileMappings(step.mappings),
    })),
  };
}

/** A plain value: typed lead values give back what was received. */
export function plainValue(value: unknown): unknown {
  return isParsedValue(value) ? value.raw : value;
}

/**
 * The value a delivery sends (#24.2): a typed lead value's normal form when it is valid
 * (`Nora@Example.COM` as `nora@example.com`, `texas` as `TX`, `(512) 555-0142` as
 * `+15125550142`), what was received when it is not, or when `raw` is asked for.
 */
export function deliveredValue(value: unknown, raw = false): unknown {
  if (!isParsedValue(value)) return value;
  return !raw && value.valid && value.normal !== null && value.normal !== undefined ? value.normal : value.raw;
}

/** Compiled flows by ID and version: a flow is compiled once per version, in any number of leads. */
export function createFlowCache(limit = 1000): (flow: FlowRecord) => CompiledFlow {
  const cache = new Map<string, CompiledFlow>();
  return (flow) => {
    const key = `${flow.id}:${flow.version}`;
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = compileFlow(flow);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(key, compiled);
    }
    return compiled;
  };
}
