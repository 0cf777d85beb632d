import { type Static, Type } from '@sinclair/typebox';
import type { EventRecord } from '../domain/events';
import { SEARCH_FIELDS } from '../ports/search';
import { SEARCH_MAX_REACHABLE } from './queries';
import { S } from './define';

const eventRef = Type.Unsafe<EventRecord>({ $ref: '#/components/schemas/Event' });

/**
 * One row of GET /events/stats (spec "Event statistics row"): its group keys (flow_id,
 * source_id, recipient_id, time or lead fields, as grouped), then counters such as
 * `source_submitted`, `source_success`, `recipient_failure`, and cost, revenue and stages.
 */
export const StatsRowSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]), {
  title: 'StatsRow',
  examples: [
    {
      source_id: '5fd4e3b7c1a2b3c4d5e6f701',
      source_submitted: 12,
      source_success: 10,
      source_failure: 2,
      source_error: 0,
    },
  ],
});
export type StatsRow = Static<typeof StatsRowSchema>;

/** The text a search term matched, by field. */
const highlights = Type.Partial(
  Type.Object(Object.fromEntries(SEARCH_FIELDS.map((f) => [f, Type.Array(Type.String())]))),
);

/** One search hit (spec "Lead search result"). */
export const SearchHitSchema = Type.Object(
  {
    lead_id: S.id(),
    flow_id: S.id(),
    flow_name: Type.String(),
    source_id: S.id(),
    source_name: Type.String(),
    submission_timestamp: S.dateTime(),
    ...Object.fromEntries(SEARCH_FIELDS.map((f) => [f, Type.String()])),
    highlight: highlights,
    latest_event: Type.Union([eventRef, Type.Null()], { description: 'The latest event, or null past retention.' }),
  },
  { title: 'SearchHit' },
);

/** GET /search/leads. */
export const SearchResultSchema = Type.Object(
  {
    total: Type.Integer({
      minimum: 0,
      maximum: SEARCH_MAX_REACHABLE,
      description:
        'Matching leads that can be paged to: every match up to 1,000, the reachable results; 1,000 means 1,000 or more.',
    }),
    hits: Type.Array(Type.Unsafe<Static<typeof SearchHitSchema>>({ $ref: '#/components/schemas/SearchHit' })),
  },
  {
    title: 'SearchResult',
    examples: [
      {
        total: 1,
        hits: [
          {
            lead_id: '5fd4e3b7c1a2b3c4d5e6f701',
            flow_id: '5fd4e3b7c1a2b3c4d5e6f702',
            flow_name: 'Auto insurance',
            source_id: '5fd4e3b7c1a2b3c4d5e6f703',
            source_name: 'Quote form',
            submission_timestamp: '2026-03-01T15:04:05.000Z',
            ...Object.fromEntries(SEARCH_FIELDS.map((f) => [f, ''])),
            first_name: 'Nora',
            last_name: 'Lovelace',
            email: 'nora@example.com',
            phone_1: '5125550142',
            highlight: { last_name: ['<em>Lovel</em>ace'] },
            latest_event: null,
          },
        ],
      },
    ],
  },
);

/** GET /firehose. */
export const FirehoseValidationSchema = Type.Object(
  {
    validated: Type.Boolean({
      description: 'Whether the service accepted the credentials (and, with a file, the write).',
    }),
    verification_file: Type.Boolean({ description: 'Whether a verification file was written.' }),
    reason: Type.Optional(Type.String({ description: 'Why validated is false.' })),
  },
  { title: 'FirehoseValidation', examples: [{ validated: true, verification_file: true }] },
);
export type FirehoseValidation = Static<typeof FirehoseValidationSchema>;

/** Every refusal's body: RFC 9457 problem details, with each invalid value's JSON pointer. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable error kind, e.g. NotFound, Validation.' }),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    current_version: Type.Optional(
      Type.Integer({
        description: 'On 409 or 412 for a stale write of a versioned resource (a flow): its current version.',
      }),
    ),
  },
  {
    title: 'Problem',
    description: 'RFC 9457 problem details.',
    examples: [
      {
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        detail: 'The flow is not valid.',
        code: 'Validation',
        errors: [{ path: '/steps/0/type', message: '/steps/0/type must be recipient or filter.' }],
      },
    ],
  },
);

/** The answer to a lead submitted by a source (spec "Submit a lead"). */
export const IntakeResultSchema = Type.Object(
  {
    outcome: Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('error')]),
    reason: Type.Optional(Type.String()),
    lead: Type.Object({ id: S.id() }),
    price: Type.Number({ description: 'Submit: what the source is paid. Ping: what a post would be paid.' }),
    ping_id: Type.Optional(
      Object.assign(S.id(), {
        description: 'Pings: send it as ping_id with the post to sell the lead to the winning bidder at its bid.',
      }),
    ),
    expires_at: Type.Optional(S.dateTime()),
  },
  {
    title: 'IntakeResult',
    examples: [
      { outcome: 'success', lead: { id: '5fd4e3b7c1a2b3c4d5e6f701' }, price: 12.5 },
      {
        outcome: 'success',
        lead: { id: '5fd4e3b7c1a2b3c4d5e6f709' },
        price: 15,
        ping_id: '5fd4e3b7c1a2b3c4d5e6f709',
        expires_at: '2026-03-01T15:09:05.000Z',
      },
    ],
  },
);

const size = Type.Object({ width: Type.Number(), height: Type.Number() });

/** Ping data (spec "Ping data"): what a consent certificate recorded about the visit. */
export const PingDataSchema = Type.Object(
  {
    age: Type.Integer({ description: 'Seconds since the certificate was created, at the time of the ping.' }),
    client: Type.Object({
      ip: Type.String(),
      user_agent: Type.String(),
      dimensions: Type.Object({ screen: size, window: size }),
      geo: Type.Object({
        city: Type.String(),
        country: Type.String(),
        postal_code: Type.String(),
        subdivisions: Type.Array(Type.String()),
      }),
    }),
    created_at: S.dateTime(),
    location: Type.Object({ framed: Type.Boolean(), parent_url: Type.String(), url: Type.String() }),
    time_on_page: Type.Number({ description: 'Seconds the visitor spent on the page.' }),
    type: Type.String(),
  },
  {
    title: 'PingData',
    examples: [
      {
        age: 42,
        client: {
          ip: '203.0.113.7',
          user_agent: 'Mozilla/5.0',
          dimensions: { screen: { width: 1920, height: 1080 }, window: { width: 1280, height: 720 } },
          geo: { city: 'Austin', country: 'US', postal_code: '78701', subdivisions: ['TX'] },
        },
        created_at: '2026-01-15T12:00:00.000Z',
        location: { framed: false, parent_url: '', url: 'https://quotes.example/form' },
        time_on_page: 95,
        type: 'form',
      },
    ],
  },
);
export type PingData = Static<typeof PingDataSchema>;
