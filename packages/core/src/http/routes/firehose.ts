import type { QueryParams } from '../../firehose/query';
import type { LeadService } from '../../service';
import { json } from '../reply';
import { problemOf } from '../status';
import { FirehoseQueryParams } from '../../schemas/queries';
import { schemaRef } from '../schemas';
import type { Route } from '../types';

/** The query as the firehose check reads it: a repeated name becomes an array (and is refused). */
function queryParams(query: URLSearchParams): QueryParams {
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

/** `GET /firehose`: checks cloud storage credentials (and write access) before a flow uses them. */
export function firehoseRoutes(service: LeadService): Route[] {
  return [
    {
      method: 'GET',
      path: '/firehose',
      auth: 'key',
      summary: 'Validate firehose credentials',
      doc: {
        query: FirehoseQueryParams,
        response: schemaRef('FirehoseValidation'),
        errors: { 500: 'The storage service failed (the spec names 500 here).' },
      },
      // The answer never echoes the credentials it was given.
      handle: (c) => service.firehose.validate(queryParams(c.query)).map(json(200)),
      // The spec lists 500 for GET /firehose when the storage service fails (#19.9); elsewhere an upstream failure is
      // 502.
      mapError: (error) =>
        error.type === 'UpstreamFailure'
          ? {
              status: 500,
              text: JSON.stringify({ ...problemOf(error), status: 500, title: 'Internal Server Error' }),
              contentType: 'application/problem+json; charset=utf-8',
            }
          : undefined,
    },
  ];
}
