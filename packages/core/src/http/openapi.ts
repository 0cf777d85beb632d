import { HANDLER_VERSION } from '../domain/events';
import { type JsonSchema, SCHEMAS, schemaRef } from './schemas';
import { pathParam } from '../schemas/params';
import type { TObject } from '@sinclair/typebox';
import { jsonSchema } from '../schemas/define';
import type { QueryParamDoc, Route, RouteDoc } from './types';

/** An OpenAPI 3.1 document. */
export type OpenApiDocument = { readonly openapi: '3.1.0'; readonly [key: string]: unknown };

const BODY_TYPES = ['application/json', 'application/xml', 'text/xml', 'application/x-www-form-urlencoded'];
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schemaRef('Problem') } },
});

/** Statuses every route of a kind answers, from what the route table says of it. */
function derivedErrors(route: Route): Record<number, string> {
  const errors: Record<number, string> = {
    404: 'Unknown resource, or one of another account.',
    500: 'Internal error.',
    503: 'Storage unavailable.',
  };
  if (route.auth === 'key')
    errors[401] = route.leadData
      ? 'Missing or invalid API key, or a free account (no access to leads).'
      : 'Missing or invalid API key.';
  if (route.auth === 'key-or-staff')
    errors[401] = "Missing or invalid API key (an account's, or an operator staff member's).";
  if (route.auth === 'none')
    errors[429] = 'Too many failed look-ups (401, 404, 422) from this client address; retry after Retry-After seconds.';
  if (route.path.includes(':') || route.doc?.query) errors[400] = 'Invalid parameters.';
  if (route.produces && route.produces.length > 0) errors[406] = `Accept names none of ${route.produces.join(', ')}.`;
  if (route.readsBody) {
    Object.assign(errors, {
      400: 'The body cannot be parsed as its Content-Type.',
      413: 'Body larger than 10 MB.',
      415: 'Body without Content-Type, or an unsupported one.',
      422: 'The body is not valid.',
    });
  }
  return { ...errors, ...route.doc?.errors };
}

/** The parameters of a query schema: each property, its description lifted out of its schema. */
function queryParameters(query: RouteDoc['query']): QueryParamDoc[] {
  if (query === undefined) return [];
  if (Array.isArray(query)) return [...(query as readonly QueryParamDoc[])];
  const schema = query as TObject;
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = jsonSchema(property);
    return {
      name,
      description: typeof description === 'string' ? description : name,
      schema: rest,
      required: schema.required?.includes(name) ?? false,
    };
  });
}

/** The tags of the document: one per capability, each described. */
const TAGS = {
  entities: "Entities (sources and recipients) and the account's aliases for them.",
  flows: 'Flows: sources, acceptance criteria, steps and recipients.',
  intake: 'Lead intake: submit and ping, authorized by the flow and source IDs (and a posting secret when set).',
  events: 'The events recorded at every step of a lead.',
  statistics: 'Event statistics, grouped and bucketed.',
  search: "Full-text search over the account's leads.",
  feedback: 'Conversions and returns, by event ID or recipient record ID.',
  exports: 'CSV exports of events.',
  alerts: 'Alerts on lead volume and rates, with their settings and activity.',
  connections: 'Connections between accounts: invitations to sell or buy leads to one another.',
  firehose: 'Checking firehose (S3 or Azure Blob Storage) credentials.',
  certificates: 'Consent-certificate ping data (the certificate handler, mounted at its own base address).',
  meta: 'This document.',
} as const;

function tagOf(path: string): keyof typeof TAGS {
  if (/^\/flows\/[^/]+\/sources\//.test(path)) return 'intake';
  if (path.startsWith('/events/stats')) return 'statistics';
  if (path.startsWith('/entity-aliases')) return 'entities';
  if (path.startsWith('/openapi')) return 'meta';
  const first = path.split('/')[1] ?? '';
  return (first in TAGS ? first : 'meta') as keyof typeof TAGS;
}

function operation(route: Route): Record<string, unknown> {
  const params = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(pathParam(name ?? '')),
  }));
  const query = queryParameters(route.doc?.query).map((q) => ({
    name: q.name,
    in: 'query',
    required: q.required ?? false,
    description: q.description,
    schema: q.schema,
  }));
  const produces = route.produces ?? ['application/json'];
  const status = route.doc?.status ?? (route.method === 'POST' ? 201 : 200);
  const responseSchema = route.doc?.response ?? { type: 'object' };
  const responses: Record<string, unknown> = {
    [status]: {
      description: 'Success.',
      content: Object.fromEntries(produces.map((type) => [type, { schema: responseSchema }])),
    },
  };
  for (const [code, description] of Object.entries(derivedErrors(route))) responses[code] = problem(description);
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[/:{}.-]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    tags: [route.doc?.tag ?? tagOf(route.path)],
    ...(route.auth === 'none' ? { security: [] } : { security: [{ basic: [] }, { bearer: [] }] }),
    ...(params.length + query.length > 0 ? { parameters: [...params, ...query] } : {}),
    ...(route.readsBody
      ? {
          requestBody: {
            required: false,
            content: Object.fromEntries(
              BODY_TYPES.map((type) => [type, { schema: route.doc?.body ?? { type: 'object' } }]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/** The shared schemas `value` refers to, and those they refer to in turn: each document lists only its own. */
function componentsUsedBy(value: unknown): Record<string, JsonSchema> {
  const used: Record<string, JsonSchema> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (typeof node === 'object' && node !== null)
      for (const [key, child] of Object.entries(node)) {
        const name = key === '$ref' && typeof child === 'string' ? child.split('#/components/schemas/')[1] : undefined;
        const schema = name === undefined ? undefined : SCHEMAS[name];
        if (name !== undefined && schema !== undefined && !(name in used)) {
          used[name] = schema;
          visit(schema);
        } else visit(child);
      }
  };
  visit(value);
  return Object.fromEntries(Object.entries(used).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The OpenAPI 3.1 document of a route table: generated, never written by hand, so
 * it cannot drift from what the handler serves.
 */
export function openApiDocument(
  routes: readonly Route[],
  options: { title?: string; serverUrl?: string } = {},
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Leadroute API',
      version: HANDLER_VERSION,
      description:
        'Lead routing: flows, events, feedback, exports, statistics, search, alerts, entities, firehose and certificates.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? '/',
        description: options.serverUrl ? 'This service.' : 'Where the Leadroute handler is mounted.',
      },
    ],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'User name `API`, password the API key.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token.' },
      },
      schemas: componentsUsedBy(paths),
    },
    paths,
  };
}
