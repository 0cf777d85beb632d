import type { LeadService } from '../../service';
import { json } from '../reply';
import type { Route } from '../types';

/** Alerts: the active list, the effective settings (read-only) and each alert's timeline. */
export function alertRoutes(service: LeadService): Route[] {
  const { alerts } = service;
  return [
    { method: 'GET', path: '/alerts', auth: 'key', summary: 'List active alerts', handle: (c) => alerts.list(c.principal).map(json(200)) },
    {
      method: 'GET',
      path: '/alerts/settings',
      auth: 'key',
      summary: 'Effective alert settings',
      handle: (c) => alerts.settings.effective(c.principal.account.id).map(json(200)),
    },
    {
      method: 'GET',
      path: '/alerts/:key/activity',
      auth: 'key',
      summary: "An alert's activity timeline",
      handle: (c) => alerts.activity(c.principal, c.params.key ?? '', c.query).map(json(200)),
    },
  ];
}
