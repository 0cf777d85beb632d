import { type Static, type TSchema, Type } from '@sinclair/typebox';
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
  { title: 'Alert' },
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
  { title: 'ActivityPage' },
);

const RATE_TYPES = ALERT_TYPES.filter((t) => t !== 'no-leads' && t !== 'new-source');
const templates = () => Type.Record(Type.String(), Type.String(), { description: 'Templates by variant.' });
const common = {
  enabled: Type.Boolean(),
  send_email: Type.Boolean(),
  severity: literals(ALERT_SEVERITIES),
  messages: templates(),
  details: templates(),
};
const rateSettings = Type.Object(
  {
    ...common,
    window_minutes: Type.Number({ minimum: 1, maximum: 1440 }),
    baseline_days: Type.Number({ minimum: 1, maximum: 90 }),
    min_volume: Type.Number({ minimum: 0 }),
    min_rate: Type.Number({ minimum: 0, maximum: 1 }),
    baseline_multiplier: Type.Number({ minimum: 0 }),
    baseline_margin: Type.Number({ minimum: 0, maximum: 1 }),
    resolve_ratio: Type.Number({ minimum: 0, maximum: 1 }),
    bands: Type.Partial(
      Type.Object({
        critical: Type.Number({ minimum: 0, maximum: 1 }),
        serious: Type.Number({ minimum: 0, maximum: 1 }),
        warning: Type.Number({ minimum: 0, maximum: 1 }),
      }),
      { description: 'The rate from which an alert takes each severity.' },
    ),
  },
  { title: 'RateAlertSettings' },
);

/** GET /alerts/settings (spec "Alert Settings"): the account switch, who alert e-mail goes to, each type's settings. */
export const AlertSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    email_to: Type.Array(Type.String({ format: 'email' }), {
      description: 'Addresses that critical and serious alerts are e-mailed to (types with send_email).',
    }),
    types: Type.Object({
      ...Object.fromEntries(RATE_TYPES.map((t) => [t, rateSettings])),
      'no-leads': Type.Object({
        ...common,
        baseline_days: Type.Number({ minimum: 1, maximum: 90 }),
        min_baseline_per_hour: Type.Number({ minimum: 0 }),
        zero_run_hours: Type.Number({ minimum: 1, maximum: 720 }),
        critical_after_hours: Type.Number({ minimum: 1, maximum: 720 }),
      }),
      'new-source': Type.Object({ ...common, resolve_after_hours: Type.Number({ minimum: 0 }) }),
    }),
  },
  { title: 'AlertSettings' },
);

/** The schema and the port's type name the same properties. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const alertFits: Same<keyof Static<typeof AlertSchema>, keyof Alert> = true;
void alertFits;
