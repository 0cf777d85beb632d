import { type Static, Type } from '@sinclair/typebox';
import { SEARCH_SORT_FIELDS } from '../ports/search';
import { INTERVALS } from '../stats/buckets';
import { S } from './define';

/** Most results search reaches by paging (spec); `from + limit` beyond it is a 400. */
export const SEARCH_MAX_REACHABLE = 1000;
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 100;
export const SEARCH_MAX_QUERY = 1000;
/** Longest range of event statistics, in days: events are kept 90 days; 400 covers that and any calendar year. */
export const MAX_STATS_RANGE_DAYS = 400;

/** GET /search/leads. */
export const SearchQueryParams = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: SEARCH_MAX_QUERY,
        description:
          'Terms matched by prefix in first_name, last_name, email, phone_1, phone_2, address_1, city, state, postal_code and reference (all must match); "quoted phrases" match as written. Case and diacritics are ignored.',
        examples: ['jane austin', '"san antonio" 7820'],
        'x-message': `must be at most ${SEARCH_MAX_QUERY} characters`,
      }),
    ),
    sort_by: Type.Optional(
      Type.Union(
        SEARCH_SORT_FIELDS.map((f) => Type.Literal(f)),
        {
          description: 'Order by this field instead of relevance.',
          'x-message': `must be one of ${SEARCH_SORT_FIELDS.join(', ')}`,
        },
      ),
    ),
    sort_dir: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
        description: 'With sort_by: ascending (the default) or descending.',
        'x-message': 'must be asc or desc',
      }),
    ),
    from: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: SEARCH_MAX_REACHABLE - 1,
        default: 0,
        description: 'Results to skip.',
        'x-message': `must be an integer from 0 to ${SEARCH_MAX_REACHABLE - 1}`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SEARCH_MAX_LIMIT,
        default: SEARCH_DEFAULT_LIMIT,
        description: `Results to return; from + limit is at most ${SEARCH_MAX_REACHABLE}.`,
        'x-message': `must be an integer from 1 to ${SEARCH_MAX_LIMIT}`,
      }),
    ),
  },
  { title: 'SearchQueryParams' },
);
export type SearchQueryParams = Static<typeof SearchQueryParams>;

/** The `type` values of event statistics: event types, the feedback kinds, and `all`. */
export const STATS_TYPES = [
  'source',
  'recipient',
  'ping',
  'feedback-received',
  'feedback-sent',
  'return-received',
  'return-sent',
  'conversion-received',
  'conversion-sent',
  'all',
] as const;

const csvOf = (values: readonly string[]) => Type.String({ description: `Comma-separated: ${values.join(', ')}.` });

/** GET /events/stats. */
export const StatsQueryParams = Type.Object(
  {
    type: Type.Optional(
      Type.Union([...STATS_TYPES.map((t) => Type.Literal(t)), csvOf(STATS_TYPES)], {
        description:
          'The kinds of event counted, one or several (repeat it, or separate with commas). Default: source.',
      }),
    ),
    group_by: Type.Optional(
      Type.String({
        description:
          'Group rows by flow_id, source_id, recipient_id, time or a lead field such as state; repeat it, or separate with commas (at most 6).',
        examples: ['source_id', 'state,time'],
      }),
    ),
    interval: Type.Optional(
      Type.Union(
        INTERVALS.map((i) => Type.Literal(i)),
        { description: 'Time buckets; implies group_by=time. group_by=time alone buckets daily.' },
      ),
    ),
    timezone: Type.Optional(S.timeZone()),
    start: Type.Optional(
      Type.String({
        description:
          'Range start (inclusive): epoch ms, ISO 8601 with an offset, or a date or date-time read in `timezone`. Default: midnight today there.',
        examples: ['2026-03-01', '2026-03-01T00:00:00-05:00'],
      }),
    ),
    end: Type.Optional(
      Type.String({
        description: `Range end (exclusive), as start. At most ${MAX_STATS_RANGE_DAYS} days after start (events are kept 90 days); longer ranges answer 400.`,
      }),
    ),
    rule: Type.Optional(
      Type.String({
        description:
          'A JSON rule (or array of rules) on the event, ANDed; repeat it for more, e.g. {"lhv":"lead.state","op":"is equal to","rhv":"TX"}.',
      }),
    ),
  },
  { title: 'StatsQueryParams' },
);
export type StatsQueryParams = Static<typeof StatsQueryParams>;

/** GET /firehose: checks storage credentials, optionally writing a verification file. */
export const FirehoseQueryParams = Type.Object(
  {
    service: Type.Union([Type.Literal('aws'), Type.Literal('azure')], {
      description: 'The storage service.',
      'x-message': 'must be aws or azure',
    }),
    bucket: Type.String({
      maxLength: 255,
      description: 'The S3 bucket, or the Azure container.',
      examples: ['acme-leads'],
      'x-message': 'must be a string of at most 255 characters',
    }),
    access_key_id: Type.Optional(
      Type.String({
        maxLength: 128,
        pattern: '^\\S*$',
        description: 'AWS only (required there).',
        'x-message': 'must be at most 128 characters, without spaces',
      }),
    ),
    secret_access_key: Type.Optional(
      Type.String({
        maxLength: 256,
        description: 'AWS only (required there).',
        'x-message': 'must be at most 256 characters',
      }),
    ),
    connection_string: Type.Optional(
      Type.String({
        maxLength: 4096,
        description: 'Azure only (required there): the storage connection string.',
        'x-message': 'must be at most 4096 characters',
      }),
    ),
    prefix: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'Key prefix to write under.',
        'x-message': 'must be at most 1024 characters',
      }),
    ),
    flow_id: Type.Optional(
      Type.String({
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]{0,64}$',
        description: 'Named in the verification file.',
        'x-message': 'must be letters, digits, hyphens or underscores',
      }),
    ),
    verification_file: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Write a verification file (true) or only check the credentials.',
        'x-message': 'must be true or false',
      }),
    ),
  },
  { title: 'FirehoseQueryParams', examples: [{ service: 'aws', bucket: 'acme-leads', access_key_id: 'AKIA…' }] },
);
export type FirehoseQueryParams = Static<typeof FirehoseQueryParams>;
