import { stringify } from 'csv-stringify/sync';
import type { LeadService } from '../../service';
import { MAX_STATS_RANGE_DAYS } from '../../stats/params';
import { StatsQueryParams } from '../../schemas/queries';
import { schemaRef } from '../schemas';
import type { Route } from '../types';

/** The media types statistics answer with: JSON (the default) or CSV with a header row. */
export const STATS_TYPES = ['application/json', 'text/csv'] as const;

/** GET /events/stats: event statistics as JSON rows or CSV. Free accounts are refused (lead data). */
export function statsRoutes(service: LeadService): Route[] {
  return [
    {
      method: 'GET',
      path: '/events/stats',
      auth: 'key',
      leadData: true,
      produces: STATS_TYPES,
      summary: 'Event statistics',
      doc: {
        query: StatsQueryParams,
        response: { type: 'array', items: schemaRef('StatsRow') },
        errors: { 400: `An unknown or invalid parameter, or a range longer than ${MAX_STATS_RANGE_DAYS} days.` },
      },
      handle: (c) =>
        service.stats.compute(c.principal, c.query, { signal: c.signal }).map((result) => {
          const headers = { 'x-leadroute-stats-source': result.source };
          if (c.mediaType !== 'text/csv') return { status: 200, json: result.rows, headers };
          const csv = stringify(result.rows, {
            header: true,
            columns: result.columns,
            cast: { boolean: (b) => String(b) },
          });
          return { status: 200, text: csv, contentType: 'text/csv; charset=utf-8', headers };
        }),
    },
  ];
}
