import { Kind, type Static, type TSchema, Type, TypeRegistry } from '@sinclair/typebox';
import type { DurationUnit } from '../domain/flows';
import { FIELD_TYPES } from '../rules/fields/parse';
import { S } from './define';
import { ruleSet } from './rules';

/**
 * The flow body (POST/PUT /flows, `service.flows.create/update`), defined once: its validator
 * (`deepValidator`, every problem at its full path), its TypeScript type, and the OpenAPI
 * `FlowInput`/`Flow` schemas. What a schema cannot say is checked by `flows/validate.ts` once
 * the shape is right: the rule sets (the rules engine, with the operators installed), templates,
 * whether a recipient's module is outbound, a source named twice, posting-secret rotation, and
 * the firehose's conditional requirements (`normalizeFirehoseConfig`).
 */

/** Most sources, steps and nested entries a flow may have: far above real flows, a bound for hostile ones. */
export const FLOW_LIMITS = { sources: 1000, steps: 200, fields: 1000, windows: 100, prices: 1000, mappings: 1000 };

export const DURATION_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const satisfies DurationUnit[];

const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;
const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T, description?: string) =>
  Type.Object(properties, { 'x-message': 'must be an object', ...(description ? { description } : {}) });
const list = <T extends TSchema>(items: T, max: number, description?: string) =>
  Type.Array(items, { maxItems: max, 'x-message': `must be an array of at most ${max} items`, description });
const text = (max = 200, description?: string) =>
  Type.String({
    maxLength: max,
    pattern: '\\S',
    'x-message': `must be a non-empty string of at most ${max} characters`,
    ...(description ? { description } : {}),
  });
const integer = (minimum: number, maximum: number, description?: string) =>
  Type.Integer({ minimum, maximum, 'x-message': `must be an integer from ${minimum} to ${maximum}`, description });
const amount = (description: string) =>
  Type.Number({
    minimum: 0,
    maximum: MAX_AMOUNT,
    'x-message': `must be a number from 0 to ${MAX_AMOUNT}`,
    description,
  });
const flag = (description: string) => Type.Boolean({ 'x-message': 'must be true or false', description });
const keptId = (description: string) => Type.Optional(Type.String({ maxLength: 64, description }));
const rules = (description: string) => Type.Optional(S.nullable(ruleSet(description)));

/** The calendar window of a cap or ping limit. */
const windowProperties = {
  id: keptId('Kept on update when it names an entry the flow already has; assigned otherwise.'),
  name: Type.Optional(text(200)),
  maximum: integer(0, MAX_AMOUNT, 'Most leads (caps) or pings (ping limits) in a window.'),
  duration: Type.Optional(integer(1, 1000, 'Window length in duration_units. Default 1.')),
  duration_units: Type.Union(
    DURATION_UNITS.map((u) => Type.Literal(u)),
    { 'x-message': `must be one of ${DURATION_UNITS.join(', ')}` },
  ),
  time_zone: Type.Optional(
    Type.String({
      format: 'iana-time-zone',
      'x-message': 'must be an IANA time zone',
      description: "The calendar's zone. Default: the account's.",
    }),
  ),
};

export const PingLimitInput = object(windowProperties, 'At most maximum pings per window.');
export const CapInput = object(
  { ...windowProperties, rule_set: rules('Only leads it matches count against the cap.') },
  'At most maximum leads per window.',
);

export const PricingInput = S.nullable(
  object(
    {
      override: Type.Optional(flag('When true the configured price wins over a price the recipient reports.')),
      prices: Type.Optional(
        list(
          object({ amount: amount('The price.'), rule_set: rules('The price applies when it matches.') }),
          FLOW_LIMITS.prices,
          'Every price is evaluated; the last match wins.',
        ),
      ),
    },
    'Prices by rule set.',
  ),
);

export const MappingInput = object(
  {
    property: text(200, 'The delivered field to set.'),
    value: Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean()], {
      'x-message': 'must be a string (templates allowed)',
      description: 'A template ({{lead.phone_1}}) or a literal.',
    }),
    raw: Type.Optional(flag('Send the value as received instead of its normal form (the default).')),
    rule_set: rules('The mapping applies when it matches.'),
  },
  'Sets property of the delivered lead to the templated value.',
);

export const FeedbackInput = S.nullable(
  object(
    {
      enabled: flag('Whether feedback is taken (steps) or forwarded (sources).'),
      rule_set: rules('Criteria the feedback (type, reason, lead data) must meet.'),
    },
    'Feedback on a delivery step or a source.',
  ),
);

/** A source's feedback: as a step's, and where to deliver it. */
export const SourceFeedbackInput = S.nullable(
  object(
    {
      enabled: flag("Whether feedback on this source's leads is forwarded to it."),
      rule_set: rules('Criteria the feedback (type, reason, lead data) must meet to be forwarded.'),
      forward_to: Type.Optional(
        object(
          {
            module_id: Type.String({
              pattern: '^platform-[A-Za-z0-9_-]+\\.outbound\\.[A-Za-z0-9_-]+$',
              maxLength: 200,
              'x-message': 'must name an outbound module, platform-<integration>.outbound.<name>',
              examples: ['platform-custom.outbound.json'],
            }),
            config: S.plainObject({ 'x-message': 'must be an object', description: "The module's configuration." }),
            timeout_ms: Type.Optional(integer(50, 120_000, 'Delivery timeout. Default 10000.')),
            retries: Type.Optional(integer(0, 5, 'Tries again after a connection error (no answer). Default 2.')),
          },
          'Where forwarded feedback is delivered: the lead ID, the feedback type, reason and time, and the lead fields.',
        ),
      ),
    },
    'Feedback forwarded to the source.',
  ),
);

export const FieldInput = object({
  id: Type.String({
    pattern: '^(lead\\.)?[A-Za-z0-9_]+$',
    maxLength: 200,
    'x-message': 'must name a lead field such as lead.loan_amount',
  }),
  type: Type.Union(
    FIELD_TYPES.map((t) => Type.Literal(t)),
    { 'x-message': 'is not a known field type' },
  ),
});

/** Most fields a duplicate check may combine. */
export const DUPLICATE_CHECK_MAX_FIELDS = 5;

export const DuplicateCheckInput = object(
  {
    fields: Type.Array(Type.String({ pattern: '^(lead\\.)?[A-Za-z0-9_]+$', maxLength: 200 }), {
      minItems: 1,
      maxItems: DUPLICATE_CHECK_MAX_FIELDS,
      uniqueItems: true,
      'x-message': `must be 1 to ${DUPLICATE_CHECK_MAX_FIELDS} distinct lead fields such as email or lead.phone_1`,
      description: 'Lead fields whose normal forms identify a lead: an e-mail address in lower case, a phone number.',
    }),
    match: Type.Optional(
      Type.Union([Type.Literal('all'), Type.Literal('any')], {
        'x-message': 'must be all or any',
        description: 'all (default): the fields together; any: one field matching is enough.',
      }),
    ),
    duration: integer(1, 1000, 'The window, in duration_units: leads accepted this long ago or less count.'),
    duration_units: windowProperties.duration_units,
    action: Type.Optional(
      Type.Union([Type.Literal('reject'), Type.Literal('flag')], {
        'x-message': 'must be reject or flag',
        description:
          'reject (default): the source is answered failure, reason Duplicate lead. flag: the lead goes on with duplicate true for rules.',
      }),
    ),
  },
  'A lead matching one the account accepted within the window is a duplicate.',
);

export const SourceInput = object(
  {
    entity_id: S.id(),
    acceptance_criteria: rules("The source's own acceptance criteria, besides the flow's."),
    ping_limits: Type.Optional(list(PingLimitInput, FLOW_LIMITS.windows)),
    caps: Type.Optional(list(CapInput, FLOW_LIMITS.windows)),
    pricing: Type.Optional(PricingInput),
    feedback: Type.Optional(SourceFeedbackInput),
    duplicate_check: Type.Optional(DuplicateCheckInput),
    response_template: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$' }), Type.String({ maxLength: 2000 }), {
        // A key pattern alone only types the keys that match it: `<bad` went through and broke the XML answer.
        additionalProperties: false,
        maxProperties: 50,
        'x-message': 'must map at most 50 field names (letters, digits, _ . -) to templates of at most 2000 characters',
        description:
          'The answer this source expects: its field names, each a template over outcome, reason, price, lead.id, ping_id, expires_at and lead.<field>.',
        examples: [{ status: '{{outcome}}', id: '{{lead.id}}', bid: '{{price}}', ref: '{{lead.vendor_ref}}' }],
      }),
    ),
    require_posting_secret: Type.Optional(
      flag(
        'Submits and pings must carry the posting secret (X-Posting-Secret or HTTP Basic password). Left out of a PUT: unchanged.',
      ),
    ),
    rotate_posting_secret: Type.Optional(
      Type.Boolean({
        writeOnly: true,
        'x-message': 'must be true or false',
        description: 'Replace the posting secret with a new one.',
      }),
    ),
    posting_secret: Type.Optional(
      Type.String({ readOnly: true, description: 'Only in the answer that generated it; never shown again.' }),
    ),
  },
  'A source of the flow: the entity that submits leads, with its own criteria and limits.',
);

export const StepInput = object(
  {
    id: keptId('Kept on update when it names a step the flow already has; assigned otherwise.'),
    type: Type.Union([Type.Literal('recipient'), Type.Literal('filter')], {
      'x-message': 'must be recipient or filter',
    }),
    entity_id: S.id(),
    module_id: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Recipient steps: the outbound module, platform-<integration>.outbound.<name>.',
        examples: ['platform-custom.outbound.json'],
      }),
    ),
    config: Type.Optional(
      S.plainObject({
        'x-message': 'must be an object',
        description: "The module's configuration (docs/integrations.md).",
      }),
    ),
    rule_set: rules('Recipient: criteria to deliver (else skip). Filter: criteria that stop the lead.'),
    caps: Type.Optional(list(CapInput, FLOW_LIMITS.windows)),
    pricing: Type.Optional(PricingInput),
    mappings: Type.Optional(list(MappingInput, FLOW_LIMITS.mappings)),
    credential_id: Type.Optional(S.nullable(S.id())),
    feedback: Type.Optional(FeedbackInput),
    timeout_ms: Type.Optional(integer(50, 120_000, 'Delivery timeout. Default 10000.')),
    cost: Type.Optional(amount("Cost of running the step for one lead (an enhancement's fee). Default 0.")),
  },
  'A step: deliver to a recipient, or filter leads out.',
);

/** Checked by `normalizeFirehoseConfig` (requirements depend on `enabled`); the schema documents it. */
export const FIREHOSE_KIND = 'LeadrouteFirehose';
TypeRegistry.Set(FIREHOSE_KIND, () => true);
const bucketService = (credentialRequired: boolean) =>
  Type.Object({
    enabled: Type.Optional(Type.Boolean()),
    ...(credentialRequired
      ? { credential_id: Type.String({ maxLength: 256 }) }
      : {
          credential_id: Type.Optional(Type.String({ maxLength: 256 })),
          connection_string: Type.Optional(Type.String({ maxLength: 4096 })),
        }),
    bucket: Type.String({ maxLength: 255, description: 'S3 bucket or Azure container.' }),
    prefix: Type.Optional(Type.String({ maxLength: 1024 })),
  });
export const FirehoseInput = Type.Unsafe<Record<string, unknown>>({
  [Kind]: FIREHOSE_KIND,
  description: "Copies the flow's events to S3 and/or Azure Blob Storage. The flat AWS form is still read.",
  anyOf: [
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      services: Type.Optional(
        Type.Object({ aws: Type.Optional(bucketService(true)), azure: Type.Optional(bucketService(false)) }),
      ),
    }),
    bucketService(true),
  ],
});

const flowProperties = {
  name: text(200),
  enabled: Type.Optional(flag('Default true.')),
  fields: Type.Optional(list(FieldInput, FLOW_LIMITS.fields, 'Types of lead fields beyond the standard ones.')),
  acceptance_criteria: rules('Every lead must match it to be accepted.'),
  ping_limits: Type.Optional(list(PingLimitInput, FLOW_LIMITS.windows)),
  duplicate_check: Type.Optional(DuplicateCheckInput),
  ping_validity_seconds: Type.Optional(
    integer(1, 86_400, 'How long a ping bid holds: a post naming its ping_id later is refused. Default 300.'),
  ),
  firehose: Type.Optional(S.nullable(FirehoseInput)),
  sources: Type.Optional(list(SourceInput, FLOW_LIMITS.sources)),
  steps: Type.Optional(list(StepInput, FLOW_LIMITS.steps)),
};

const example = {
  name: 'Auto insurance',
  acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'OK'] }] },
  duplicate_check: { fields: ['email'], duration: 30, duration_units: 'days' },
  sources: [{ entity_id: '5f2b8c0e9d3a4b1c2d3e4f50', caps: [{ maximum: 500, duration_units: 'days' }] }],
  steps: [
    {
      type: 'recipient',
      entity_id: '5f2b8c0e9d3a4b1c2d3e4f51',
      module_id: 'platform-custom.outbound.json',
      config: { url: 'https://buyer.example/leads' },
    },
  ],
};

/** POST /flows. */
export const FlowBody = Type.Object(flowProperties, { title: 'FlowInput', examples: [example] });
export type FlowBody = Static<typeof FlowBody>;

/** PUT /flows/{id}: a whole flow, with the version it was read at when If-Match is not sent. */
export const FlowUpdateBody = Type.Object(
  {
    ...flowProperties,
    version: Type.Optional(
      Type.Integer({ minimum: 1, 'x-message': 'must be the positive integer the flow was read at' }),
    ),
  },
  { title: 'FlowUpdateBody', examples: [{ ...example, version: 3 }] },
);
export type FlowUpdateBody = Static<typeof FlowUpdateBody>;

/** POST /flows/{flow_id}/sources/{source_id}/submit and /ping: the lead's fields, as JSON, XML or a form. */
export const LeadBody = Type.Record(Type.String(), Type.Unknown(), {
  title: 'LeadBody',
  description: 'Lead fields: the standard ones (first_name, email, phone_1, state...) and any of the flow.',
  examples: [
    {
      first_name: 'Nora',
      last_name: 'Lovelace',
      email: 'Nora@Example.com',
      phone_1: '(512) 555-0142',
      state: 'TX',
      postal_code: '78701',
      trustedform_cert_url: 'https://cert.trustedform.com/3f786850e387550fdab836ed7e6dc881de23001b',
    },
  ],
});

/** A flow as the API shows it. */
export const FlowSchema = Type.Composite(
  [
    Type.Object(flowProperties),
    Type.Object({
      id: S.id(),
      version: Type.Integer(),
      enabled: Type.Boolean(),
      created_at: S.dateTime(),
      updated_at: S.dateTime(),
    }),
  ],
  {
    title: 'Flow',
    examples: [
      {
        ...example,
        id: '5fd4e3b7c1a2b3c4d5e6f702',
        version: 3,
        enabled: true,
        created_at: '2026-03-01T15:04:05.000Z',
        updated_at: '2026-03-01T15:04:05.000Z',
      },
    ],
  },
);
