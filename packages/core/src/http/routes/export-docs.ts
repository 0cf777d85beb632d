import { EXPORTS_DEFAULT_LIMIT, EXPORTS_MAX_LIMIT } from '../../exports/request';
import { type JsonSchema, schemaRef } from '../schemas';
import type { QueryParamDoc, RouteDoc } from '../types';

const id = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const user: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    email: { type: 'string' },
    sso_id: { type: 'string' },
  },
};

const exportRequest: JsonSchema = {
  type: 'object',
  required: ['start', 'end', 'fields'],
  description: 'Only these properties are read; all others are set by the service.',
  properties: {
    start: {
      type: 'string',
      description: 'Start of the range, inclusive. ISO 8601; without an offset, a wall time in the account time zone.',
    },
    end: { type: 'string', description: 'End of the range, exclusive; after start.' },
    fields: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: { type: 'string' },
      description:
        'CSV columns: dotted paths into the event (id, outcome, start_timestamp...) or its vars (lead.email, same as vars.lead.email).',
    },
    filter_rules: {
      type: 'array',
      items: { oneOf: [schemaRef('Rule'), schemaRef('RuleSet')] },
      description: 'ANDed; evaluated against the event with its vars.',
    },
    email_to: { type: 'array', maxItems: 50, items: { type: 'string', format: 'email' } },
    standard_dates: {
      type: 'boolean',
      description: 'true: ISO 8601 UTC dates; otherwise legacy yyyy-MM-dd HH:mm:ss in the account time zone.',
    },
  },
};

const exportSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'created_at', 'status'],
  properties: {
    id,
    created_at: dateTime,
    status: { enum: ['created', 'processing', 'complete', 'error', 'truncated'] },
    start: dateTime,
    end: dateTime,
    filter_rules: { type: 'array', items: { oneOf: [schemaRef('Rule'), schemaRef('RuleSet')] } },
    email_to: { type: 'array', items: { type: 'string' } },
    fields: { type: 'array', items: { type: 'string' } },
    date_format: { enum: ['standard', 'legacy'] },
    user,
    expires_at: dateTime,
    reason: { type: 'object', properties: { message: { type: 'string' } } },
    error: { type: 'string' },
    exported_docs: { type: 'integer', description: 'Rows written so far; grows while processing.' },
    file_name: { type: 'string' },
    downloads: { type: 'array', items: { type: 'object', properties: { at: dateTime, user } } },
  },
};

const listQuery: readonly QueryParamDoc[] = [
  {
    name: 'before_id',
    description: 'Only exports created before this one (exclusive); pass the last item of a page to get the next.',
    schema: id,
  },
  { name: 'after_id', description: 'Only exports created after this one (exclusive).', schema: id },
  {
    name: 'limit',
    description: `Page size, 1..${EXPORTS_MAX_LIMIT}.`,
    schema: { type: 'integer', minimum: 1, maximum: EXPORTS_MAX_LIMIT, default: EXPORTS_DEFAULT_LIMIT },
  },
];

/** OpenAPI descriptions of the export routes. */
export const EXPORT_DOCS = {
  list: { query: listQuery, response: { type: 'array', items: exportSchema } },
  create: {
    body: exportRequest,
    response: exportSchema,
    errors: { 422: 'The export is not valid.', 503: 'No file store is configured, or storage is down.' },
  },
  get: {
    response: exportSchema,
    errors: { 400: 'The ID is not valid.', 404: 'No export with that ID in the calling account; empty body.' },
  },
  file: {
    response: {
      type: 'object',
      required: ['url', 'expires_at'],
      properties: {
        url: {
          type: 'string',
          description:
            'Download URL valid 10 seconds (relative to this endpoint unless exports.baseUrl is set, or an S3 pre-signed URL).',
        },
        expires_at: dateTime,
      },
    },
    errors: {
      404: 'No such export, or its file is not ready (still running, in error, or expired).',
      422: 'The ID is not valid.',
    },
  },
  download: {
    query: [
      { name: 'expires', description: 'From the file link.', schema: { type: 'string' }, required: true },
      { name: 'signature', description: 'From the file link.', schema: { type: 'string' }, required: true },
    ],
    response: { type: 'string', description: 'The CSV.' },
    errors: { 403: 'The link is malformed, tampered with or expired.', 404: 'No such export or file.' },
  },
} satisfies Record<string, RouteDoc>;
