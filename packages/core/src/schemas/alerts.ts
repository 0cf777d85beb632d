import { type Static, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType } from '@sinclair/typebox/compiler';
import type { Issue } from '../errors';
import { ACTIVITY_KINDS, ACTIVITY_SOURCES, ALERT_SEVERITIES, ALERT_TYPES, type Alert } from '../ports/alerts';
import { S } from './define';

/** Timeline page size (spec: 1..200, default 50). */
export const ACTIVITY_LIMIT = { min: 1, max: 200, default: 50 } as const;

const literals = <const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TSchema & { static: V[number] };

/** GET /alerts/{key}/activity. */
export const ActivityQueryParams = Type.Object(
  {
    before: Type.Optional(
      Type.String({
        description: "The previous page's next_before, or an ISO 8601 date or date-time (only strictly older entries).",
        examples: ['2026-03-01T00:00:00Z'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: ACTIVITY_LIMIT.min,
        maximum: ACTIVITY_LIMIT.max,
        default: ACTIVITY_LIMIT.default,
        description: `Entries per page, ${ACTIVITY_LIMIT.min}..${ACTIVITY_LIMIT.max}.`,
        'x-message': `must be an integer from ${ACTIVITY_LIMIT.min} to ${ACTIVITY_LIMIT.max}`,
      }),
    ),
    kind: Type.Optional(
      literals(ACTIVITY_KINDS, {
        description: 'Only entries of this kind.',
        'x-message': `must be one of ${ACTIVITY_KINDS.join(', ')}`,
      }),
    ),
  },
  { title: 'ActivityQueryParams' },
);
export type ActivityQueryParams = Static<typeof ActivityQueryParams>;

const nullableText = () => Type.Union([Type.String(), Type.Null()]);

/** An alert as the API shows it (spec "Alert"). */
export const AlertSchema = Type.Object(
  {
    key: Type.String({ description: 'type:account:entity; no-leads keys add the silent run start.' }),
    type: literals(ALERT_TYPES),
    kind: nullableText(),
    severity: literals(ALERT_SEVERITIES),
    message: Type.String(),
    detail: Type.String(),
    flow_id: S.nullable(S.id()),
    flow_name: nullableText(),
    entity_id: nullableText(),
    entity_name: nullableText(),
    recipient_id: nullableText(),
    outcome: nullableText(),
    time_zone: Type.String(),
    first_seen_at: S.dateTime(),
    last_seen_at: S.dateTime(),
    data: Type.Record(Type.String(), Type.Number(), {
      description: 'Aggregate numbers only (rate, baseline_rate, total, ...), never lead data.',
    }),
  },
  {
    title: 'Alert',
    examples: [
      {
        key: 'recipient-failure:5fd4e3b7c1a2b3c4d5e6f704:5fd4e3b7c1a2b3c4d5e6f701',
        type: 'recipient-failure',
        kind: null,
        severity: 'serious',
        message: 'Lone Star Leads is failing 42% of deliveries',
        detail: '42 of 100 deliveries failed in the last hour, against 3% over the last 30 days.',
        flow_id: '5fd4e3b7c1a2b3c4d5e6f702',
        flow_name: 'Auto insurance',
        entity_id: '5fd4e3b7c1a2b3c4d5e6f701',
        entity_name: 'Lone Star Leads',
        recipient_id: '5fd4e3b7c1a2b3c4d5e6f701',
        outcome: 'failure',
        time_zone: 'America/Chicago',
        first_seen_at: '2026-03-01T15:04:05.000Z',
        last_seen_at: '2026-03-01T15:04:05.000Z',
        data: { rate: 0.42, baseline_rate: 0.03, total: 100 },
      },
    ],
  },
);

/** One timeline entry (spec "Alert Activity Entry"). */
export const AlertActivityEntrySchema = Type.Object(
  {
    at: S.dateTime(),
    kind: literals(ACTIVITY_KINDS),
    actor: Type.Object({ type: Type.String(), id: Type.String(), name: Type.String() }),
    visibility: literals(['customer', 'internal'] as const),
    source: literals(ACTIVITY_SOURCES),
    data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  },
  { title: 'AlertActivityEntry' },
);

/** GET /alerts/{key}/activity: one page of a timeline, newest first. */
export const ActivityPageSchema = Type.Object(
  {
    entries: Type.Array(AlertActivityEntrySchema),
    next_before: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `before` for the next page; null on the last one.',
    }),
  },
  {
    title: 'ActivityPage',
    examples: [
      {
        entries: [
          {
            at: '2026-03-01T15:04:05.000Z',
            kind: 'created',
            actor: { type: 'system', id: 'detector', name: 'Alert detector' },
            visibility: 'customer',
            source: 'collector',
            data: { severity: 'serious' },
          },
        ],
        next_before: null,
      },
    ],
  },
);

/** The kinds only the detector writes: `alerts.addActivity` refuses them. */
export const DETECTOR_KINDS = ['created', 'severity_change', 'relabel', 'message_change', 'resolved'] as const;
const PERSON_KINDS = ACTIVITY_KINDS.filter(
  (k): k is Exclude<(typeof ACTIVITY_KINDS)[number], (typeof DETECTOR_KINDS)[number]> =>
    !(DETECTOR_KINDS as readonly string[]).includes(k),
);
const oneOfKinds = `must be one of ${PERSON_KINDS.join(', ')}`;
const actorText = () => Type.String({ maxLength: 200 });
const actorMessage = 'must have type, id and name strings';

/** What the host records about what people did (`service.alerts.addActivity`). */
export const ActivityInputSchema = Type.Object(
  {
    kind: literals(PERSON_KINDS, { 'x-message': oneOfKinds, 'x-missing-message': oneOfKinds }),
    actor: Type.Object(
      { type: actorText(), id: actorText(), name: actorText() },
      { 'x-message': actorMessage, 'x-missing-message': actorMessage },
    ),
    visibility: Type.Optional(
      literals(['customer', 'internal'] as const, {
        default: 'customer',
        'x-message': 'must be customer or internal',
      }),
    ),
    source: Type.Optional(
      literals(ACTIVITY_SOURCES, { default: 'api', 'x-message': `must be one of ${ACTIVITY_SOURCES.join(', ')}` }),
    ),
    data: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
        'x-message': 'must be an object or null',
      }),
    ),
    at: Type.Optional(
      Type.String({
        description: 'ISO 8601; without an offset, UTC. Default: now.',
        'x-message': 'must be an ISO 8601 date-time',
      }),
    ),
  },
  { title: 'ActivityInput' },
);
export type ActivityInput = Static<typeof ActivityInputSchema>;

/** A number setting of `min`..`max` (a setting without a range takes any number ≥ 0). */
const num = (key: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  Type.Number({ minimum: min, maximum: max, 'x-message': `${key} must be a number from ${min} to ${max}.` });
const bool = (key: string) => Type.Boolean({ 'x-message': `${key} must be true or false.` });
const templates = (key: string) =>
  Type.Record(Type.String(), Type.String({ 'x-message': 'A template is a string.' }), {
    description: 'Templates by variant.',
    'x-message': `${key} must be an object of templates by variant.`,
  });
const common = {
  enabled: bool('enabled'),
  send_email: bool('send_email'),
  severity: literals(ALERT_SEVERITIES, { 'x-message': `severity must be one of ${ALERT_SEVERITIES.join(', ')}.` }),
  messages: templates('messages'),
  details: templates('details'),
};
const band = () => Type.Number({ minimum: 0, maximum: 1, 'x-message': 'A band is a rate from 0 to 1.' });

const rate = () => ({
  ...common,
  window_minutes: num('window_minutes', 1, 1440),
  baseline_days: num('baseline_days', 1, 90),
  min_volume: num('min_volume'),
  min_rate: num('min_rate', 0, 1),
  baseline_multiplier: num('baseline_multiplier'),
  baseline_margin: num('baseline_margin', 0, 1),
  resolve_ratio: num('resolve_ratio', 0, 1),
  bands: Type.Partial(Type.Object({ critical: band(), serious: band(), warning: band() }), {
    description: 'The rate from which an alert takes each severity.',
    additionalProperties: false,
    'x-message': 'bands must be an object of rates by severity.',
    'x-unknown': 'bands are critical, serious or warning.',
  }),
});
const noLeads = () => ({
  ...common,
  baseline_days: num('baseline_days', 1, 90),
  min_baseline_per_hour: num('min_baseline_per_hour'),
  zero_run_hours: num('zero_run_hours', 1, 720),
  critical_after_hours: num('critical_after_hours', 1, 720),
});
const newSource = () => ({ ...common, resolve_after_hours: num('resolve_after_hours') });

/** Settings of a type as they are (the answer), or as an operator changes them (any of them; unknown keys refused). */
const whole = <P extends TProperties>(_type: string, properties: P) => Type.Object(properties);
const partial = <P extends TProperties>(type: string, properties: P) =>
  Type.Partial(Type.Object(properties), {
    additionalProperties: false,
    'x-message': 'Type settings must be an object.',
    'x-unknown': `{key} is not a setting of ${type}.`,
  });

/** Each type's settings. `x-message` is the whole sentence for a bad value, `x-unknown` that for a key the object does not have. */
function perType<R extends TSchema, N extends TSchema, S extends TSchema>(
  rateOf: (type: string) => R,
  noLeadsOf: () => N,
  newSourceOf: () => S,
) {
  return {
    'recipient-failure': rateOf('recipient-failure'),
    'recipient-skip': rateOf('recipient-skip'),
    'source-rejects': rateOf('source-rejects'),
    'no-leads': noLeadsOf(),
    'new-source': newSourceOf(),
    'duplicate-leads': rateOf('duplicate-leads'),
    'invalid-email': rateOf('invalid-email'),
    'invalid-phone': rateOf('invalid-phone'),
    'missing-tf-cert': rateOf('missing-tf-cert'),
    'tf-failures': rateOf('tf-failures'),
  } satisfies Record<(typeof ALERT_TYPES)[number], TSchema>;
}

const emailTo = () =>
  Type.Array(
    Type.String({
      format: 'email',
      pattern: '^\\S(.*\\S)?$',
      'x-message': 'email_to must be an array of e-mail addresses.',
      'x-at': 'parent',
    }),
    {
      description: 'Addresses that critical and serious alerts are e-mailed to (types with send_email).',
      'x-message': 'email_to must be an array of e-mail addresses.',
    },
  );

/** GET /alerts/settings (spec "Alert Settings"): the account switch, who alert e-mail goes to, each type's settings. */
export const AlertSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    email_to: emailTo(),
    types: Type.Object(
      perType(
        (t) => whole(t, rate()),
        () => whole('no-leads', noLeads()),
        () => whole('new-source', newSource()),
      ),
    ),
  },
  { title: 'AlertSettings' },
);
export type AlertSettingsView = Static<typeof AlertSettingsSchema>;

/**
 * What an operator changes (`alerts.settings.setPlatformOverrides`/`setAccountOverrides`): any part of
 * the settings; objects merge key by key into the defaults, other values replace. Unknown keys are refused.
 */
export const AlertSettingsOverridesSchema = Type.Partial(
  Type.Object({
    enabled: bool('enabled'),
    email_to: emailTo(),
    types: Type.Partial(
      Type.Object(
        perType(
          (t) => partial(t, rate()),
          () => partial('no-leads', noLeads()),
          () => partial('new-source', newSource()),
        ),
      ),
      {
        additionalProperties: false,
        'x-message': 'types must be an object keyed by alert type.',
        'x-unknown': '{key} is not an alert type.',
      },
    ),
  }),
  {
    title: 'AlertSettingsOverrides',
    additionalProperties: false,
    'x-message': 'Alert settings overrides must be an object.',
    'x-unknown': '{key} is not an alert setting.',
  },
);
export type AlertSettingsOverrides = Static<typeof AlertSettingsOverridesSchema>;

const compiledOverrides = TypeCompiler.Compile(AlertSettingsOverridesSchema);

/**
 * Checks overrides against their schema; each problem at its JSON pointer, in the words of the
 * schema node that refused it (`x-message`, or `x-unknown` for a key the node does not have).
 */
export function overridesIssues(value: unknown): Issue[] {
  const issues = new Map<string, Issue>();
  for (const error of compiledOverrides.Errors(value)) {
    const node = error.schema as TSchema & { 'x-message'?: string; 'x-unknown'?: string; 'x-at'?: string };
    const unknown = error.type === ValueErrorType.ObjectAdditionalProperties;
    const path = node['x-at'] === 'parent' ? error.path.split('/').slice(0, -1).join('/') : error.path;
    const key = path.split('/').at(-1) ?? '';
    const message = unknown ? node['x-unknown']?.replace('{key}', key) : node['x-message'];
    if (!issues.has(path)) issues.set(path, { path, message: message ?? `${key} ${error.message.toLowerCase()}.` });
  }
  return [...issues.values()];
}

/** The schema and the port's type name the same properties. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const alertFits: Same<keyof Static<typeof AlertSchema>, keyof Alert> = true;
void alertFits;
