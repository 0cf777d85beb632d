import type { LeadService } from '../../service';
import { json } from '../reply';
import { SearchQueryParams } from '../../schemas/queries';
import { schemaRef } from '../schemas';
import type { Route } from '../types';

/** GET /search/leads: full-text lead search. Free accounts are refused (lead data). */
export function searchRoutes(service: LeadService): Route[] {
  return [
    {
      method: 'GET',
      path: '/search/leads',
      auth: 'key',
      leadData: true,
      summary: 'Search leads',
      doc: { query: SearchQueryParams, response: schemaRef('SearchResult') },
      handle: (c) => service.search.leads(c.principal, c.query, { signal: c.signal }).map(json(200)),
    },
  ];
}
