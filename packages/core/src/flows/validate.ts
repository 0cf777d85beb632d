import type { Static } from '@sinclair/typebox';
import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import { normalizeFirehoseConfig } from '../firehose';
import { isId, isRuleId, newId, newRuleId } from '../ids';
import { MODULE_ID_PATTERN } from '../entities/validate';
import { type RuleSet, tryCompileTemplate, validateRuleSet } from '../rules';
import { isoTime } from '../time';
import { newPostingSecret } from './posting-secret';
import { deepValidator, eachOfKind } from '../schemas/define';
import {
  type CapInput,
  type DuplicateCheckInput,
  FIREHOSE_KIND,
  FlowBody,
  type FeedbackInput,
  type MappingInput,
  type PingLimitInput,
  type PricingInput,
  type SourceFeedbackInput,
  type SourceInput,
  type StepInput,
} from '../schemas/flows';
import { RULE_SET_KIND } from '../schemas/rules';
import type {
  Cap,
  DuplicateCheck,
  FeedbackConfig,
  FlowConfig,
  FlowSource,
  FlowStep,
  Mapping,
  PingLimit,
  Pricing,
} from '../domain/flows';

/** What validation needs besides the body: the clock, the account's zone, and the current flow on update. */
export interface FlowValidationContext {
  readonly now: number;
  readonly timeZone: string;
  /** The stored flow being updated: its step and limit IDs are kept when the body names them. */
  readonly current?: FlowConfig;
}

const checkShape = deepValidator(FlowBody);

/**
 * What the schema cannot say, checked once the shape is right: rule sets through the rules
 * engine (found where the schema places them), templates, the firehose's conditional
 * requirements, a recipient's module, a source named twice, posting-secret rotation. Issues
 * collect here; each reader returns the stored form with server-assigned IDs.
 */
class Reader {
  readonly issues: Issue[] = [];
  constructor(
    readonly ctx: FlowValidationContext,
    /** Each rule set of the body, checked and with its IDs, by its JSON pointer. */
    readonly ruleSets: ReadonlyMap<string, RuleSet>,
  ) {}

  problem(path: string, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  /** `{ [key]: the checked rule set at path }`, or nothing when the body has none there. */
  ruleSet<K extends string>(key: K, path: string): { [P in K]?: RuleSet } {
    const found = this.ruleSets.get(path);
    return (found === undefined ? {} : { [key]: found }) as { [P in K]?: RuleSet };
  }
}

type Window = Static<typeof PingLimitInput>;

const windowOf = (v: Window) => ({
  maximum: v.maximum,
  duration: v.duration ?? 1,
  duration_units: v.duration_units,
});

function pingLimits(r: Reader, input: readonly Window[], known: readonly PingLimit[] = []): PingLimit[] {
  return input.map((v) => {
    const prior = isId(v.id) ? known.find((k) => k.id === v.id?.toLowerCase()) : undefined;
    return {
      id: prior?.id ?? newId(r.ctx.now),
      name: v.name?.trim() ?? 'Ping limit',
      ...windowOf(v),
      time_zone: v.time_zone ?? r.ctx.timeZone,
      created_at: prior?.created_at ?? isoTime(r.ctx.now),
    };
  });
}

function caps(r: Reader, input: readonly Static<typeof CapInput>[], path: string): Cap[] {
  return input.map((v, i) => ({
    id: isRuleId(v.id) ? v.id : newRuleId(),
    name: v.name?.trim() ?? 'Cap',
    ...windowOf(v),
    ...(v.time_zone === undefined ? {} : { time_zone: v.time_zone }),
    ...r.ruleSet('rule_set', `${path}/${i}/rule_set`),
  }));
}

function pricing(r: Reader, v: Static<typeof PricingInput> | undefined, path: string): { pricing?: Pricing } {
  if (v === undefined || v === null) return {};
  const prices = (v.prices ?? []).map((price, i) => ({
    id: newRuleId(),
    amount: price.amount,
    ...r.ruleSet('rule_set', `${path}/prices/${i}/rule_set`),
  }));
  return { pricing: { override: v.override === true, prices } };
}

function mappings(r: Reader, input: readonly Static<typeof MappingInput>[], path: string): Mapping[] {
  return input.map((v, i) => {
    const value = String(v.value);
    const compiled = tryCompileTemplate(value);
    if (compiled.isErr())
      r.problem(`${path}/${i}/value`, `${path}/${i}/value is not a valid template: ${compiled.error}`);
    return {
      id: newRuleId(),
      property: v.property.trim(),
      value,
      ...(v.raw === true ? { raw: true } : {}),
      ...r.ruleSet('rule_set', `${path}/${i}/rule_set`),
    };
  });
}

function feedback(
  r: Reader,
  v: Static<typeof FeedbackInput> | Static<typeof SourceFeedbackInput> | undefined,
  path: string,
): { feedback?: FeedbackConfig } {
  if (v === undefined || v === null) return {};
  const to = 'forward_to' in v ? v.forward_to : undefined;
  const forward: Partial<FeedbackConfig> =
    to === undefined
      ? {}
      : {
          forward_to: {
            module_id: to.module_id,
            config: to.config as Readonly<Record<string, unknown>>,
            ...(to.timeout_ms === undefined ? {} : { timeout_ms: to.timeout_ms }),
            ...(to.retries === undefined ? {} : { retries: to.retries }),
          },
        };
  return { feedback: { enabled: v.enabled, ...r.ruleSet('rule_set', `${path}/rule_set`), ...forward } };
}

function duplicateCheck(v: Static<typeof DuplicateCheckInput> | undefined): { duplicate_check?: DuplicateCheck } {
  if (v === undefined) return {};
  return {
    duplicate_check: {
      fields: v.fields.map((f) => f.replace(/^lead\./, '')),
      match: v.match ?? 'all',
      duration: v.duration,
      duration_units: v.duration_units,
      action: v.action ?? 'reject',
    },
  };
}

function responseTemplate(
  r: Reader,
  v: Readonly<Record<string, string>> | undefined,
  path: string,
): { response_template?: Readonly<Record<string, string>> } {
  if (v === undefined) return {};
  for (const [name, template] of Object.entries(v)) {
    const compiled = tryCompileTemplate(template);
    if (compiled.isErr()) r.problem(`${path}/${name}`, `${path}/${name} is not a valid template: ${compiled.error}`);
  }
  return { response_template: { ...v } };
}

function source(r: Reader, v: Static<typeof SourceInput>, path: string, current?: FlowSource): FlowSource {
  return {
    entity_id: v.entity_id.toLowerCase(),
    ...r.ruleSet('acceptance_criteria', `${path}/acceptance_criteria`),
    ...(v.ping_limits === undefined ? {} : { ping_limits: pingLimits(r, v.ping_limits, current?.ping_limits) }),
    ...(v.caps === undefined ? {} : { caps: caps(r, v.caps, `${path}/caps`) }),
    ...pricing(r, v.pricing, `${path}/pricing`),
    ...feedback(r, v.feedback, `${path}/feedback`),
    ...duplicateCheck(v.duplicate_check),
    ...responseTemplate(r, v.response_template, `${path}/response_template`),
    ...postingSecret(r, v, path, current),
  };
}

/**
 * The posting-secret fields of a source. A body never sets the secret or its digest: the
 * server generates the secret when it is first required or rotated, and keeps the digest
 * otherwise; a PUT that leaves `require_posting_secret` out keeps the current setting, so
 * an older client cannot drop the requirement by not knowing the field.
 */
function postingSecret(
  r: Reader,
  v: Static<typeof SourceInput>,
  path: string,
  current?: FlowSource,
): Partial<FlowSource> {
  const required = v.require_posting_secret ?? current?.require_posting_secret === true;
  if (!required) {
    if (v.rotate_posting_secret === true)
      r.problem(`${path}/rotate_posting_secret`, `${path}/rotate_posting_secret needs require_posting_secret true.`);
    return {};
  }
  if (current?.posting_secret_sha256 !== undefined && v.rotate_posting_secret !== true)
    return { require_posting_secret: true, posting_secret_sha256: current.posting_secret_sha256 };
  const generated = newPostingSecret();
  return { require_posting_secret: true, posting_secret: generated.secret, posting_secret_sha256: generated.sha256 };
}

function step(r: Reader, v: Static<typeof StepInput>, path: string, known: readonly FlowStep[]): FlowStep {
  const moduleId = v.module_id ?? '';
  if (v.type === 'recipient' && !(MODULE_ID_PATTERN.test(moduleId) && moduleId.includes('.outbound.')))
    r.problem(
      `${path}/module_id`,
      `${path}/module_id must name an outbound module, platform-<integration>.outbound.<name>.`,
    );
  const prior = v.id === undefined ? undefined : known.find((s) => s.id === v.id);
  return {
    id: prior?.id ?? newId(r.ctx.now),
    type: v.type,
    entity_id: v.entity_id.toLowerCase(),
    module_id: moduleId,
    // A plain object, as the schema checked; its keys are the module's to check.
    config: (v.config ?? {}) as Readonly<Record<string, unknown>>,
    ...r.ruleSet('rule_set', `${path}/rule_set`),
    ...(v.caps === undefined ? {} : { caps: caps(r, v.caps, `${path}/caps`) }),
    ...pricing(r, v.pricing, `${path}/pricing`),
    ...(v.mappings === undefined ? {} : { mappings: mappings(r, v.mappings, `${path}/mappings`) }),
    ...(v.credential_id === undefined || v.credential_id === null
      ? {}
      : { credential_id: v.credential_id.toLowerCase() }),
    ...feedback(r, v.feedback, `${path}/feedback`),
    ...(v.timeout_ms === undefined ? {} : { timeout_ms: v.timeout_ms }),
    ...(v.cost === undefined ? {} : { cost: v.cost }),
  };
}

/** Each rule set of the body through the rules engine, by its path; the rules engine's issues into `issues`. */
function checkRuleSets(body: unknown, issues: Issue[]): Map<string, RuleSet> {
  const checked = new Map<string, RuleSet>();
  eachOfKind(FlowBody, body, RULE_SET_KIND, (value, path) => {
    const result = validateRuleSet(value, { path });
    if (result.isErr()) issues.push(...result.error);
    else checked.set(path, result.value);
  });
  return checked;
}

/** The firehose in its service form, its problems at `/firehose/...`. */
function checkFirehose(body: unknown, issues: Issue[]): FlowConfig['firehose'] {
  let firehose: FlowConfig['firehose'];
  eachOfKind(FlowBody, body, FIREHOSE_KIND, (value) => {
    const normalized = normalizeFirehoseConfig(value);
    if (normalized.isErr()) issues.push(...normalized.error.map((i) => ({ ...i, path: `/firehose${i.path}` })));
    else firehose = normalized.value;
  });
  return firehose;
}

/**
 * Validates a flow body from outside: its shape by the `FlowBody` schema, every embedded
 * rule set through the rules engine, then what only code can check; IDs are assigned by
 * the server (kept for steps and limits the current flow already has). Every problem is
 * reported with its path, shape and rules together.
 */
export function validateFlow(body: unknown, ctx: FlowValidationContext): Result<FlowConfig, Issue[]> {
  const shape = checkShape(body);
  const issues = shape.isErr() ? [...shape.error] : [];
  if (shape.isErr() && issues.some((i) => i.path === ''))
    return err([{ path: '', message: 'The flow must be a JSON object.' }]);
  const ruleSets = checkRuleSets(body, issues);
  const firehose = checkFirehose(body, issues);
  if (shape.isErr()) return err(issues);
  const flow = shape.value;
  const r = new Reader(ctx, ruleSets);
  r.issues.push(...issues);
  const seen = new Set<string>();
  const sources = (flow.sources ?? []).map((v, i) => {
    const entity = v.entity_id.toLowerCase();
    if (seen.has(entity)) r.problem(`/sources/${i}/entity_id`, 'A source entity may appear only once in a flow.');
    seen.add(entity);
    return source(
      r,
      v,
      `/sources/${i}`,
      ctx.current?.sources.find((s) => s.entity_id === entity),
    );
  });
  const config: FlowConfig = {
    name: flow.name.trim(),
    enabled: flow.enabled !== false,
    fields: (flow.fields ?? []).map((f) => ({ id: f.id, type: f.type })),
    ...r.ruleSet('acceptance_criteria', '/acceptance_criteria'),
    ...(flow.ping_limits === undefined
      ? {}
      : { ping_limits: pingLimits(r, flow.ping_limits, ctx.current?.ping_limits) }),
    ...duplicateCheck(flow.duplicate_check),
    ...(flow.ping_validity_seconds === undefined ? {} : { ping_validity_seconds: flow.ping_validity_seconds }),
    ...(firehose === undefined ? {} : { firehose }),
    sources,
    steps: (flow.steps ?? []).map((v, i) => step(r, v, `/steps/${i}`, ctx.current?.steps ?? [])),
  };
  return r.issues.length > 0 ? err(r.issues) : ok(config);
}
