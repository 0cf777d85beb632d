import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import { normalizeFirehoseConfig } from '../firehose';
import { isId, newId, newRuleId } from '../ids';
import { MODULE_ID_PATTERN } from '../entities/validate';
import { type FieldDeclaration, isFieldType, type RuleSet, tryCompileTemplate, validateRuleSet } from '../rules';
import { isTimeZone, isoTime } from '../time';
import { newPostingSecret } from './posting-secret';
import { isRecord } from '../validation';
import type {
  Cap,
  DurationUnit,
  FeedbackConfig,
  FlowConfig,
  FlowSource,
  FlowStep,
  Mapping,
  PingLimit,
  Pricing,
} from '../domain/flows';

const UNITS: readonly DurationUnit[] = ['minutes', 'hours', 'days', 'weeks', 'months'];

/** What validation needs besides the body: the clock, the account's zone, and the current flow on update. */
export interface FlowValidationContext {
  readonly now: number;
  readonly timeZone: string;
  /** The stored flow being updated: its step and limit IDs are kept when the body names them. */
  readonly current?: FlowConfig;
}

/** Collects issues while reading an untrusted body; every reader returns undefined on a problem. */
class Reader {
  readonly issues: Issue[] = [];
  constructor(readonly ctx: FlowValidationContext) {}

  problem(path: string, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  text(v: unknown, path: string, { required = false, max = 200 } = {}): string | undefined {
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v.trim() === '' || v.length > max)
      return this.problem(path, `${path} must be a non-empty string of at most ${max} characters.`);
    return v.trim();
  }

  number(
    v: unknown,
    path: string,
    { min = 0, integer = false, max = Number.MAX_SAFE_INTEGER } = {},
  ): number | undefined {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v)))
      return this.problem(path, `${path} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}.`);
    return v;
  }

  list(v: unknown, path: string): unknown[] {
    if (v === undefined) return [];
    if (!Array.isArray(v)) return this.problem(path, `${path} must be an array.`) ?? [];
    return v;
  }

  ruleSet(v: unknown, path: string): RuleSet | undefined {
    if (v === undefined || v === null) return undefined;
    const result = validateRuleSet(v, { path });
    if (result.isErr()) {
      this.issues.push(...result.error);
      return undefined;
    }
    return result.value;
  }

  id(v: unknown, path: string): string | undefined {
    return isId(v) ? v.toLowerCase() : this.problem(path, `${path} must be a 24-character hexadecimal ID.`);
  }
}

function window(r: Reader, v: Record<string, unknown>, path: string) {
  const maximum = r.number(v.maximum, `${path}/maximum`, { integer: true });
  const duration = r.number(v.duration ?? 1, `${path}/duration`, { integer: true, min: 1, max: 1000 });
  const units = UNITS.includes(v.duration_units as DurationUnit)
    ? (v.duration_units as DurationUnit)
    : r.problem(`${path}/duration_units`, `${path}/duration_units must be one of ${UNITS.join(', ')}.`);
  const zone =
    v.time_zone === undefined
      ? undefined
      : isTimeZone(v.time_zone)
        ? v.time_zone
        : r.problem(`${path}/time_zone`, `${path}/time_zone must be an IANA time zone.`);
  return { maximum: maximum ?? 0, duration: duration ?? 1, duration_units: units ?? 'days', time_zone: zone };
}

function pingLimits(r: Reader, input: unknown, path: string, known: readonly PingLimit[] = []): PingLimit[] {
  return r
    .list(input, path)
    .map((v, i) => {
      const p = `${path}/${i}`;
      if (!isRecord(v)) return r.problem(p, `${p} must be an object.`);
      const priorId = v.id;
      const prior = isId(priorId) ? known.find((k) => k.id === priorId.toLowerCase()) : undefined;
      const w = window(r, v, p);
      return {
        id: prior?.id ?? newId(r.ctx.now),
        name: r.text(v.name ?? 'Ping limit', `${p}/name`) ?? '',
        maximum: w.maximum,
        duration: w.duration,
        duration_units: w.duration_units,
        time_zone: w.time_zone ?? r.ctx.timeZone,
        created_at: prior?.created_at ?? isoTime(r.ctx.now),
      };
    })
    .filter((x): x is PingLimit => x !== undefined);
}

function caps(r: Reader, input: unknown, path: string): Cap[] {
  return r.list(input, path).flatMap((v, i) => {
    const p = `${path}/${i}`;
    if (!isRecord(v)) return r.problem(p, `${p} must be an object.`) ?? [];
    const w = window(r, v, p);
    const rule_set = r.ruleSet(v.rule_set, `${p}/rule_set`);
    const cap: Cap = {
      id: typeof v.id === 'string' && /^[0-9a-zA-Z]{6}$/.test(v.id) ? v.id : newRuleId(),
      name: r.text(v.name ?? 'Cap', `${p}/name`) ?? '',
      maximum: w.maximum,
      duration: w.duration,
      duration_units: w.duration_units,
    };
    return [{ ...cap, ...(w.time_zone ? { time_zone: w.time_zone } : {}), ...(rule_set ? { rule_set } : {}) }];
  });
}

function pricing(r: Reader, v: unknown, path: string): Pricing | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) return r.problem(path, `${path} must be an object.`);
  if (v.override !== undefined && typeof v.override !== 'boolean')
    r.problem(`${path}/override`, `${path}/override must be true or false.`);
  const prices = r.list(v.prices, `${path}/prices`).flatMap((price, i) => {
    const p = `${path}/prices/${i}`;
    if (!isRecord(price)) return r.problem(p, `${p} must be an object.`) ?? [];
    const amount = r.number(price.amount, `${p}/amount`);
    const rule_set = r.ruleSet(price.rule_set, `${p}/rule_set`);
    return [{ id: newRuleId(), amount: amount ?? 0, ...(rule_set ? { rule_set } : {}) }];
  });
  return { override: v.override === true, prices };
}

function mappings(r: Reader, input: unknown, path: string): Mapping[] {
  return r.list(input, path).flatMap((v, i) => {
    const p = `${path}/${i}`;
    if (!isRecord(v)) return r.problem(p, `${p} must be an object.`) ?? [];
    const property = r.text(v.property, `${p}/property`, { required: true });
    const value =
      typeof v.value === 'string'
        ? v.value
        : typeof v.value === 'number' || typeof v.value === 'boolean'
          ? String(v.value)
          : r.problem(`${p}/value`, `${p}/value must be a string (templates allowed).`);
    if (value !== undefined) {
      const compiled = tryCompileTemplate(value);
      if (compiled.isErr()) r.problem(`${p}/value`, `${p}/value is not a valid template: ${compiled.error}`);
    }
    const rule_set = r.ruleSet(v.rule_set, `${p}/rule_set`);
    return [{ id: newRuleId(), property: property ?? '', value: value ?? '', ...(rule_set ? { rule_set } : {}) }];
  });
}

function feedback(r: Reader, v: unknown, path: string): FeedbackConfig | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v) || typeof v.enabled !== 'boolean')
    return r.problem(path, `${path} must be an object with enabled true or false.`);
  const rule_set = r.ruleSet(v.rule_set, `${path}/rule_set`);
  return { enabled: v.enabled, ...(rule_set ? { rule_set } : {}) };
}

function fields(r: Reader, input: unknown): FieldDeclaration[] {
  return r.list(input, '/fields').flatMap((v, i) => {
    const p = `/fields/${i}`;
    if (!isRecord(v) || typeof v.id !== 'string' || !/^(lead\.)?[A-Za-z0-9_]+$/.test(v.id))
      return r.problem(`${p}/id`, `${p}/id must name a lead field such as lead.loan_amount.`) ?? [];
    if (!isFieldType(v.type)) return r.problem(`${p}/type`, `${p}/type is not a known field type.`) ?? [];
    return [{ id: v.id, type: v.type }];
  });
}

function source(r: Reader, v: unknown, path: string, current?: FlowSource): FlowSource | undefined {
  if (!isRecord(v)) return r.problem(path, `${path} must be an object.`);
  const entity_id = r.id(v.entity_id, `${path}/entity_id`);
  const out: FlowSource = {
    entity_id: entity_id ?? '',
    ...optional('acceptance_criteria', r.ruleSet(v.acceptance_criteria, `${path}/acceptance_criteria`)),
    ...optional(
      'ping_limits',
      v.ping_limits === undefined
        ? undefined
        : pingLimits(r, v.ping_limits, `${path}/ping_limits`, current?.ping_limits),
    ),
    ...optional('caps', v.caps === undefined ? undefined : caps(r, v.caps, `${path}/caps`)),
    ...optional('pricing', pricing(r, v.pricing, `${path}/pricing`)),
    ...optional('feedback', feedback(r, v.feedback, `${path}/feedback`)),
    ...postingSecret(r, v, path, current),
  };
  return out;
}

/**
 * The posting-secret fields of a source. A body never sets the secret or its digest: the
 * server generates the secret when it is first required or rotated, and keeps the digest
 * otherwise; a PUT that leaves `require_posting_secret` out keeps the current setting, so
 * an older client cannot drop the requirement by not knowing the field.
 */
function postingSecret(r: Reader, v: Record<string, unknown>, path: string, current?: FlowSource): Partial<FlowSource> {
  const given = v.require_posting_secret;
  if (given !== undefined && typeof given !== 'boolean')
    r.problem(`${path}/require_posting_secret`, `${path}/require_posting_secret must be true or false.`);
  const rotate = v.rotate_posting_secret;
  if (rotate !== undefined && typeof rotate !== 'boolean')
    r.problem(`${path}/rotate_posting_secret`, `${path}/rotate_posting_secret must be true or false.`);
  const required = typeof given === 'boolean' ? given : current?.require_posting_secret === true;
  if (!required) {
    if (rotate === true)
      r.problem(`${path}/rotate_posting_secret`, `${path}/rotate_posting_secret needs require_posting_secret true.`);
    return {};
  }
  if (current?.posting_secret_sha256 !== undefined && rotate !== true)
    return { require_posting_secret: true, posting_secret_sha256: current.posting_secret_sha256 };
  const generated = newPostingSecret();
  return { require_posting_secret: true, posting_secret: generated.secret, posting_secret_sha256: generated.sha256 };
}

function step(r: Reader, v: unknown, path: string, known: readonly FlowStep[]): FlowStep | undefined {
  if (!isRecord(v)) return r.problem(path, `${path} must be an object.`);
  const type =
    v.type === 'recipient' || v.type === 'filter'
      ? v.type
      : r.problem(`${path}/type`, `${path}/type must be recipient or filter.`);
  const entity_id = r.id(v.entity_id, `${path}/entity_id`);
  const moduleId = v.module_id;
  if (
    type === 'recipient' &&
    (typeof moduleId !== 'string' || !MODULE_ID_PATTERN.test(moduleId) || !moduleId.includes('.outbound.'))
  )
    r.problem(
      `${path}/module_id`,
      `${path}/module_id must name an outbound module, platform-<integration>.outbound.<name>.`,
    );
  if (v.config !== undefined && !isRecord(v.config)) r.problem(`${path}/config`, `${path}/config must be an object.`);
  const prior = typeof v.id === 'string' ? known.find((s) => s.id === v.id) : undefined;
  const credential_id =
    v.credential_id === undefined || v.credential_id === null
      ? undefined
      : r.id(v.credential_id, `${path}/credential_id`);
  const timeout_ms =
    v.timeout_ms === undefined
      ? undefined
      : r.number(v.timeout_ms, `${path}/timeout_ms`, { integer: true, min: 50, max: 120_000 });
  const cost = v.cost === undefined ? undefined : r.number(v.cost, `${path}/cost`);
  return {
    id: prior?.id ?? newId(r.ctx.now),
    type: type ?? 'recipient',
    entity_id: entity_id ?? '',
    module_id: typeof moduleId === 'string' ? moduleId : '',
    config: isRecord(v.config) ? v.config : {},
    ...optional('rule_set', r.ruleSet(v.rule_set, `${path}/rule_set`)),
    ...optional('caps', v.caps === undefined ? undefined : caps(r, v.caps, `${path}/caps`)),
    ...optional('pricing', pricing(r, v.pricing, `${path}/pricing`)),
    ...optional('mappings', v.mappings === undefined ? undefined : mappings(r, v.mappings, `${path}/mappings`)),
    ...optional('credential_id', credential_id),
    ...optional('feedback', feedback(r, v.feedback, `${path}/feedback`)),
    ...optional('timeout_ms', timeout_ms),
    ...optional('cost', cost),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * Validates a flow body from outside: every embedded rule set through the rules
 * engine, IDs assigned by the server (kept for steps and limits the current flow
 * already has). Every problem is reported with its path.
 */
export function validateFlow(body: unknown, ctx: FlowValidationContext): Result<FlowConfig, Issue[]> {
  if (!isRecord(body)) return err([{ path: '', message: 'The flow must be a JSON object.' }]);
  const r = new Reader(ctx);
  const name = r.text(body.name, '/name', { required: true });
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean')
    r.problem('/enabled', '/enabled must be true or false.');
  let firehose: FlowConfig['firehose'];
  if (body.firehose !== undefined && body.firehose !== null) {
    const normalized = normalizeFirehoseConfig(body.firehose);
    if (normalized.isErr()) r.issues.push(...normalized.error.map((i) => ({ ...i, path: `/firehose${i.path}` })));
    else firehose = normalized.value;
  }
  const sources = r.list(body.sources, '/sources').map((v, i) => {
    const entity = isRecord(v) && isId(v.entity_id) ? v.entity_id.toLowerCase() : undefined;
    return source(
      r,
      v,
      `/sources/${i}`,
      ctx.current?.sources.find((s) => s.entity_id === entity),
    );
  });
  const seen = new Set<string>();
  sources.forEach((s, i) => {
    if (s?.entity_id && seen.has(s.entity_id))
      r.problem(`/sources/${i}/entity_id`, 'A source entity may appear only once in a flow.');
    if (s) seen.add(s.entity_id);
  });
  const steps = r.list(body.steps, '/steps').map((v, i) => step(r, v, `/steps/${i}`, ctx.current?.steps ?? []));
  const config: FlowConfig = {
    name: name ?? '',
    enabled: body.enabled !== false,
    fields: fields(r, body.fields),
    ...optional('acceptance_criteria', r.ruleSet(body.acceptance_criteria, '/acceptance_criteria')),
    ...optional(
      'ping_limits',
      body.ping_limits === undefined
        ? undefined
        : pingLimits(r, body.ping_limits, '/ping_limits', ctx.current?.ping_limits),
    ),
    ...optional('firehose', firehose),
    sources: sources.filter((s): s is FlowSource => s !== undefined),
    steps: steps.filter((s): s is FlowStep => s !== undefined),
  };
  return r.issues.length > 0 ? err(r.issues) : ok(config);
}
