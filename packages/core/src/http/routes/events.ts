import { errAsync } from 'neverthrow';
import { errors } from '../../errors';
import { queryObject } from '../../events/query';
import type { LeadService } from '../../service';
import { isRecord } from '../../validation';
import { json } from '../reply';
import { schemaRef } from '../schemas';
import type { QueryParamDoc } from '../types';

const ID = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' };
const EVENT_QUERY: QueryParamDoc[] = [
  { name: 'after_id', description: 'Only events after this ID (exclusive).', schema: ID },
  { name: 'before_id', description: 'Only events before this ID (exclusive).', schema: ID },
  {
    name: 'start',
    description: 'Only events at or after this ISO 8601 time.',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'end',
    description: 'Only events before this ISO 8601 time.',
    schema: { type: 'string', format: 'date-time' },
  },
  { name: 'rules', description: 'A JSON array of rules every event must pass.', schema: { type: 'string' } },
  {
    name: 'include',
    description: 'Dotted fields to keep (repeatable or comma-separated).',
    schema: { type: 'string' },
  },
  {
    name: 'exclude',
    description: 'Dotted fields to drop (repeatable or comma-separated).',
    schema: { type: 'string' },
  },
  { name: 'type', description: 'Event types (repeatable).', schema: { type: 'string' } },
  {
    name: 'limit',
    description: 'Page size, 1 to 1000.',
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  },
  {
    name: 'sort',
    description: 'By ID: desc (newest first) or asc.',
    schema: { enum: ['asc', 'desc'], default: 'desc' },
  },
];
import type { Route } from '../types';

/** Event records: list by parameters, query by body, get one. */
export function eventRoutes(service: LeadService): Route[] {
  const { events } = service;
  return [
    {
      method: 'GET',
      path: '/events',
      auth: 'key',
      leadData: true,
      summary: 'List events',
      doc: { query: EVENT_QUERY, response: { type: 'array', items: schemaRef('Event') } },
      handle: (c) => events.list(c.principal, queryObject(c.query), { signal: c.signal }).map(json(200)),
    },
    {
      method: 'POST',
      path: '/events',
      auth: 'key',
      leadData: true,
      readsBody: true,
      summary: 'Query events by body',
      doc: { body: schemaRef('EventQuery'), response: { type: 'array', items: schemaRef('Event') }, status: 200 },
      handle: (c) =>
        c.body === undefined || isRecord(c.body)
          ? events.list(c.principal, c.body ?? {}, { signal: c.signal }).map(json(200))
          : errAsync(errors.badRequest('The query body must be a JSON object.')),
    },
    {
      method: 'GET',
      path: '/events/:id',
      auth: 'key',
      leadData: true,
      summary: 'Get one event',
      doc: { response: schemaRef('Event') },
      handle: (c) => events.get(c.principal, c.params.id ?? '').map(json(200)),
    },
  ];
}
