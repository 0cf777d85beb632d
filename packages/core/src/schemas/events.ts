import { type Static, Type } from '@sinclair/typebox';
import type { EventRecord } from '../domain/events';
import type { RuleElement } from '../domain/rules';
import { S } from './define';
import { ruleSet, rules } from './rules';

export const EVENTS_DEFAULT_LIMIT = 100;
export const EVENTS_MAX_LIMIT = 1000;

const described = <T extends { description?: string }>(schema: T, description: string): T =>
  Object.assign(schema, { description });

/** The parameters GET /events and POST /events share, which the schema checks. */
const checked = {
  after_id: Type.Optional(described(S.id(), 'Only events after this ID (exclusive).')),
  before_id: Type.Optional(described(S.id(), 'Only events before this ID (exclusive).')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: EVENTS_MAX_LIMIT,
      default: EVENTS_DEFAULT_LIMIT,
      description: `Page size, 1 to ${EVENTS_MAX_LIMIT}.`,
      'x-message': `must be an integer from 1 to ${EVENTS_MAX_LIMIT}`,
    }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
      default: 'desc',
      description: 'By ID: desc (newest first) or asc.',
      'x-message': 'must be asc or desc',
    }),
  ),
};

/** The part of an events query the compiled validator checks; times, rules and field paths are read by code. */
export const EventQueryChecked = Type.Object(checked);

const instant = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Integer({ description: 'Epoch milliseconds.' })], {
    description,
  });
const paths = (description: string) => Type.Union([Type.String(), Type.Array(Type.String())], { description });

/** POST /events: the events query as a JSON body. */
export const EventQueryBody = Type.Object(
  {
    after_id: checked.after_id,
    before_id: checked.before_id,
    start: Type.Optional(instant('Only events at or after this time: ISO 8601 (UTC without an offset) or epoch ms.')),
    end: Type.Optional(instant('Only events before this time, as start; not before start.')),
    rules: Type.Optional(rules<RuleElement>('Rules every event must pass (ANDed).')),
    include: Type.Optional(paths('Dotted fields to keep, e.g. vars.lead.email (an array, or comma-separated).')),
    exclude: Type.Optional(paths('Dotted fields to drop (an array, or comma-separated); not with include.')),
    type: Type.Optional(paths('Event types, e.g. source or recipient (an array, or comma-separated).')),
    limit: checked.limit,
    sort: checked.sort,
  },
  {
    title: 'EventQuery',
    examples: [
      {
        start: '2026-03-01T00:00:00Z',
        type: ['recipient'],
        rules: [{ lhv: 'outcome', op: 'is equal to', rhv: 'failure' }],
        include: ['id', 'outcome', 'reason', 'vars.lead.email'],
      },
    ],
  },
);
export type EventQueryBody = Static<typeof EventQueryBody>;

/** GET /events: the events query as parameters; repeated parameters are lists. */
export const EventQueryParams = Type.Object(
  {
    after_id: checked.after_id,
    before_id: checked.before_id,
    start: Type.Optional(
      Type.String({
        description: 'Only events at or after this time: ISO 8601 (UTC without an offset) or epoch ms.',
        examples: ['2026-03-01T00:00:00Z'],
      }),
    ),
    end: Type.Optional(Type.String({ description: 'Only events before this time, as start; not before start.' })),
    rules: Type.Optional(Type.String({ description: 'A JSON array of rules every event must pass.' })),
    include: Type.Optional(Type.String({ description: 'Dotted fields to keep (repeatable or comma-separated).' })),
    exclude: Type.Optional(Type.String({ description: 'Dotted fields to drop (repeatable or comma-separated).' })),
    type: Type.Optional(Type.String({ description: 'Event types (repeatable or comma-separated).' })),
    limit: checked.limit,
    sort: checked.sort,
  },
  { title: 'EventQueryParams' },
);
/** GET /events parameters as the client sends them: a list parameter may be repeated. */
export type EventQueryParams = Omit<Static<typeof EventQueryParams>, 'include' | 'exclude' | 'type'> & {
  include?: string | readonly string[];
  exclude?: string | readonly string[];
  type?: string | readonly string[];
};

const obj = (description: string) => Type.Object({}, { additionalProperties: true, description });
const pingLimit = Type.Object(
  {},
  { additionalProperties: true, description: 'A ping limit and what it counted for this lead.' },
);
const outcome = Type.Union(['success', 'failure', 'error', 'skip'].map((o) => Type.Literal(o)));

/**
 * An event record (spec "Event record") as GET /events and GET /events/{id} show it. The TypeScript
 * type stays `EventRecord` (domain/events.ts), which every step writes; this is its OpenAPI schema,
 * field for field. Fields beyond the common ones are present on the event types that have them.
 */
export const EventSchema = Type.Object(
  {
    id: S.id(),
    type: Type.Union(
      ['source', 'recipient', 'filter', 'ping', 'feedback-received', 'feedback-sent'].map((t) => Type.Literal(t)),
    ),
    outcome,
    reason: Type.String(),
    vars: Type.Record(Type.String(), Type.Unknown(), { description: 'The lead and its context at this step.' }),
    host: Type.String(),
    start_timestamp: Type.Integer({ description: 'Epoch ms.' }),
    end_timestamp: Type.Integer({ description: 'Epoch ms.' }),
    firehose: Type.Optional(obj('The flow firehose configuration, without credentials.')),
    ms: Type.Number(),
    wait_ms: Type.Number(),
    overhead_ms: Type.Number(),
    lag_ms: Type.Number(),
    total_ms: Type.Number(),
    handler_version: Type.String(),
    version: Type.String({ description: 'The schema version of event records.' }),
    cap_reached: Type.Boolean(),
    flow_ping_limits: Type.Optional(Type.Array(pingLimit)),
    source_ping_limits: Type.Optional(Type.Array(pingLimit)),
    ping_limit_reached: Type.Boolean(),
    expires_at: S.dateTime(),
    lead_id: S.id(),
    flow_id: S.id(),
    source_id: S.id(),
    recipient_id: Type.Union([S.id(), Type.Null()]),
    module_id: Type.Optional(Type.String()),
    package_version: Type.Optional(Type.String()),
    acceptance_criteria: Type.Optional(
      Type.Object(
        {
          rule_set: Type.Optional(ruleSet()),
          source_rule_set: Type.Optional(ruleSet()),
          outcome,
          reason: Type.String(),
        },
        { description: "Source events: the flow's and the source's criteria, and what they said of the lead." },
      ),
    ),
    step_count: Type.Optional(Type.Integer()),
    appended: Type.Optional(obj('Fields the source module appended to the lead.')),
    request: Type.Optional(obj('The request as recorded.')),
    response: Type.Optional(obj('The response as recorded.')),
    step_id: Type.Optional(Type.String()),
    caps: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({
          name: Type.String(),
          maximum: Type.Number(),
          duration: Type.Number(),
          duration_units: Type.String(),
          time_zone: Type.Optional(Type.String()),
          counted: Type.Boolean(),
          reached: Type.Boolean(),
        }),
        { description: "The step's volume caps and what each did for this lead, by cap ID." },
      ),
    ),
    caps_reached: Type.Optional(Type.Boolean()),
    key: Type.Optional(Type.String({ description: "The recipient's own record ID for the lead." })),
    cost: Type.Optional(Type.Number()),
    purchase_price: Type.Optional(Type.Number()),
    sale_price: Type.Optional(Type.Number()),
    revenue: Type.Optional(Type.Number()),
    credential: Type.Optional(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          type: Type.String(),
          package: Type.Union([Type.String(), Type.Null()]),
          created_at: Type.String(),
          updated_at: Type.String(),
          username: Type.Union([Type.String(), Type.Null()]),
        },
        { description: 'The credential used; its secret is never recorded.' },
      ),
    ),
    credential_updated: Type.Optional(Type.Boolean()),
    rule_set: Type.Optional(ruleSet()),
    mappings: Type.Optional(Type.Array(obj('A field mapping of the step.'))),
    pricing: Type.Optional(obj('The pricing of the step.')),
    transactions: Type.Optional(Type.Array(obj('A request and response exchanged with the recipient.'))),
    feedback: Type.Optional(
      Type.Object({
        type: Type.Union([Type.Literal('conversion'), Type.Literal('return')]),
        reason: Type.String(),
        occurred_at: S.dateTime(),
        event_id: described(S.id(), 'The delivery (recipient) event the feedback refers to.'),
      }),
    ),
  },
  {
    title: 'Event',
    examples: [
      {
        id: '5fd4e3b7c1a2b3c4d5e6f707',
        type: 'recipient',
        outcome: 'success',
        reason: '',
        vars: { lead: { id: '5fd4e3b7c1a2b3c4d5e6f701', email: 'nora@example.com', state: 'TX' } },
        host: 'leadroute-1',
        start_timestamp: 1772377445000,
        end_timestamp: 1772377445120,
        ms: 120,
        wait_ms: 110,
        overhead_ms: 10,
        lag_ms: 0,
        total_ms: 120,
        handler_version: '1.0.0',
        version: '1',
        cap_reached: false,
        ping_limit_reached: false,
        expires_at: '2026-05-30T15:04:05.000Z',
        lead_id: '5fd4e3b7c1a2b3c4d5e6f701',
        flow_id: '5fd4e3b7c1a2b3c4d5e6f702',
        source_id: '5fd4e3b7c1a2b3c4d5e6f703',
        recipient_id: '5fd4e3b7c1a2b3c4d5e6f704',
        module_id: 'platform-custom.outbound.json',
        step_id: '5fd4e3b7c1a2b3c4d5e6f708',
        purchase_price: 12.5,
        key: 'CRM-88412',
      },
    ],
    description:
      'An event record: a self-contained snapshot of the lead at the moment it visited a step. ' +
      'A listing with include or exclude shows only the fields kept.',
  },
);

/** True when A and B are the same union (here: of field names). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Compile-time guard: the OpenAPI schema names exactly the fields of EventRecord, the TypeScript source.
const _fieldForField: Same<keyof EventRecord, keyof Static<typeof EventSchema>> = true;
