import { ActivityQueryParams } from '../../schemas/alerts';
import type { LeadService } from '../../service';
import { json } from '../reply';
import { schemaRef } from '../schemas';
import type { Route } from '../types';

/** Alerts: the active list, the effective settings (read-only) and each alert's timeline. */
export function alertRoutes(service: LeadService): Route[] {
  const { alerts } = service;
  return [
    {
      method: 'GET',
      path: '/alerts',
      auth: 'key',
      summary: "List active alerts, critical first, then by today's affected volume",
      doc: { response: { type: 'array', items: schemaRef('Alert') } },
      handle: (c) => alerts.list(c.principal).map(json(200)),
    },
    {
      method: 'GET',
      path: '/alerts/settings',
      auth: 'key',
      summary: 'Effective alert settings',
      doc: { response: schemaRef('AlertSettings') },
      handle: (c) => alerts.settings.effective(c.principal.account.id).map(json(200)),
    },
    {
      method: 'GET',
      path: '/alerts/:key/activity',
      // Operator staff read any account's timeline, internal entries included (spec; #19.6).
      auth: 'key-or-staff',
      summary: "An alert's activity timeline, newest first",
      doc: {
        query: ActivityQueryParams,
        response: schemaRef('ActivityPage'),
        errors: {
          400: 'Invalid before, limit or kind.',
          404: 'No alert with that key for this account (operator staff: no alert with that key).',
        },
      },
      handle: (c) => alerts.activity(c.principal, c.params.key ?? '', c.query).map(json(200)),
    },
  ];
}
