import { errAsync } from 'neverthrow';
import { errors } from '../../errors';
import { queryObject } from '../../events/query';
import type { LeadService } from '../../service';
import { isRecord } from '../../validation';
import { json } from '../reply';
import type { Route } from '../types';

/** Event records: list by parameters, query by body, get one. */
export function eventRoutes(service: LeadService): Route[] {
  const { events } = service;
  return [
    { method: 'GET', path: '/events', auth: 'key', leadData: true, summary: 'List events', handle: (c) => events.list(c.principal, queryObject(c.query)).map(json(200)) },
    {
      method: 'POST',
      path: '/events',
      auth: 'key',
      leadData: true,
      readsBody: true,
      summary: 'Query events by body',
      handle: (c) =>
        c.body === undefined || isRecord(c.body) ? events.list(c.principal, c.body ?? {}).map(json(200)) : errAsync(errors.badRequest('The query body must be a JSON object.')),
    },
    { method: 'GET', path: '/events/:id', auth: 'key', leadData: true, summary: 'Get one event', handle: (c) => events.get(c.principal, c.params.id ?? '').map(json(200)) },
  ];
}
