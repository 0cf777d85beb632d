import { stringify } from 'csv-stringify/sync';
import type { LeadService } from '../../service';
import { MAX_STATS_RANGE_DAYS } from '../../stats/params';
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
        query: [
          {
            name: 'start',
            description:
              'Range start (inclusive): epoch ms, ISO 8601 with an offset, or a date or date-time read in `timezone`. Default: midnight today there.',
            schema: { type: 'string' },
          },
          {
            name: 'end',
            description: `Range end (exclusive), as start. At most ${MAX_STATS_RANGE_DAYS} days after start (events are kept 90 days); longer ranges answer 400.`,
            schema: { type: 'string' },
          },
          {
            name: 'timezone',
            description: "IANA time zone of dates without an offset and of time buckets. Default: the account's zone.",
            schema: { type: 'string' },
          },
        ],
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
