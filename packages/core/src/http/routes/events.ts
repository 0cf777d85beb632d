import { errAsync } from 'neverthrow';
import { errors } from '../../errors';
import { queryObject } from '../../events/query';
import type { LeadService } from '../../service';
import { isRecord } from '../../validation';
import { json } from '../reply';
import { schemaRef } from '../schemas';
import {
  type EventQueryBody,
  type EventQueryParams as EventQueryParamsType,
  EventQueryParams,
} from '../../schemas/events';

import type { Route } from '../types';
// Queries are cast to their types only to be handed on: the events service validates them.

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
      doc: { query: EventQueryParams, response: { type: 'array', items: schemaRef('Event') } },
      handle: (c) =>
        events.list(c.principal, queryObject(c.query) as EventQueryParamsType, { signal: c.signal }).map(json(200)),
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
          ? events.list(c.principal, (c.body ?? {}) as EventQueryBody, { signal: c.signal }).map(json(200))
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
