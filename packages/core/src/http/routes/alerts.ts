import { ACTIVITY_LIMIT } from '../../alerts/activity';
import { ACTIVITY_KINDS, ALERT_SEVERITIES, ALERT_TYPES } from '../../ports/alerts';
import type { LeadService } from '../../service';
import { json } from '../reply';
import type { JsonSchema } from '../schemas';
import type { QueryParamDoc, Route } from '../types';

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

const ALERT: JsonSchema = {
  type: 'object',
  required: ['key', 'type', 'severity', 'message', 'detail', 'time_zone', 'first_seen_at', 'last_seen_at', 'data'],
  properties: {
    key: { type: 'string', description: 'type:account:entity; no-leads keys add the silent run start.' },
    type: { type: 'string', enum: [...ALERT_TYPES] },
    kind: nullable('string'),
    severity: { type: 'string', enum: [...ALERT_SEVERITIES] },
    message: { type: 'string' },
    detail: { type: 'string' },
    flow_id: nullable('string'),
    flow_name: nullable('string'),
    entity_id: nullable('string'),
    entity_name: nullable('string'),
    recipient_id: nullable('string'),
    outcome: nullable('string'),
    time_zone: { type: 'string' },
    first_seen_at: dateTime,
    last_seen_at: dateTime,
    data: { type: 'object', additionalProperties: { type: 'number' } },
  },
};

const ACTIVITY_PAGE: JsonSchema = {
  type: 'object',
  required: ['entries', 'next_before'],
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['at', 'kind', 'actor', 'visibility', 'source', 'data'],
        properties: {
          at: dateTime,
          kind: { type: 'string', enum: [...ACTIVITY_KINDS] },
          actor: {
            type: 'object',
            properties: { type: { type: 'string' }, id: { type: 'string' }, name: { type: 'string' } },
          },
          visibility: { type: 'string', enum: ['customer', 'internal'] },
          source: { type: 'string', enum: ['ui', 'slack', 'api', 'collector'] },
          data: { type: ['object', 'null'] },
        },
      },
    },
    next_before: nullable('string'),
  },
};

const ACTIVITY_QUERY: QueryParamDoc[] = [
  {
    name: 'before',
    description: "The previous page's next_before, or an ISO 8601 date or date-time (only strictly older entries).",
    schema: { type: 'string' },
  },
  {
    name: 'limit',
    description: `Entries per page, ${ACTIVITY_LIMIT.min}..${ACTIVITY_LIMIT.max}.`,
    schema: {
      type: 'integer',
      minimum: ACTIVITY_LIMIT.min,
      maximum: ACTIVITY_LIMIT.max,
      default: ACTIVITY_LIMIT.default,
    },
  },
  { name: 'kind', description: 'Only entries of this kind.', schema: { type: 'string', enum: [...ACTIVITY_KINDS] } },
];

/** Alerts: the active list, the effective settings (read-only) and each alert's timeline. */
export function alertRoutes(service: LeadService): Route[] {
  const { alerts } = service;
  return [
    {
      method: 'GET',
      path: '/alerts',
      auth: 'key',
      summary: "List active alerts, critical first, then by today's affected volume",
      doc: { response: { type: 'array', items: ALERT } },
      handle: (c) => alerts.list(c.principal).map(json(200)),
    },
    {
      method: 'GET',
      path: '/alerts/settings',
      auth: 'key',
      summary: 'Effective alert settings',
      doc: {
        response: {
          type: 'object',
          required: ['enabled', 'types'],
          properties: { enabled: { type: 'boolean' }, types: { type: 'object' } },
        },
      },
      handle: (c) => alerts.settings.effective(c.principal.account.id).map(json(200)),
    },
    {
      method: 'GET',
      path: '/alerts/:key/activity',
      // Operator staff read any account's timeline, internal entries included (spec; #19.6).
      auth: 'key-or-staff',
      summary: "An alert's activity timeline, newest first",
      doc: {
        query: ACTIVITY_QUERY,
        response: ACTIVITY_PAGE,
        errors: {
          400: 'Invalid before, limit or kind.',
          404: 'No alert with that key for this account (operator staff: no alert with that key).',
        },
      },
      handle: (c) => alerts.activity(c.principal, c.params.key ?? '', c.query).map(json(200)),
    },
  ];
}
