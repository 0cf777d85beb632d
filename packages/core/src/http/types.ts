import type { TObject } from '@sinclair/typebox';
import type { Result, ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import type { OperatorPrincipal } from '../operators';
import type { LeadrouteError } from '../errors';
import type { JsonSchema } from './schemas';
import type { BodyLimits } from './body';

/** A request as any web framework can hand it over. */
export interface HttpRequest {
  readonly method: string;
  /** Path and query, relative to where the handler is mounted (`/entities?x=1`). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The raw body: a Node request stream, or bytes already read. Never a parsed object. */
  readonly body?: AsyncIterable<Uint8Array> | Uint8Array | string;
  /**
   * The client's address as the framework sees it (after its trusted-proxy rules): key-less
   * routes count failed look-ups per address. Requests without one share a single allowance.
   */
  readonly remoteAddress?: string;
  /** Aborted by the binding when the client goes away before its answer is sent; read-only routes then stop. */
  readonly signal?: AbortSignal;
  /**
   * A body the host's own parser already read (Express `express.json()`/`urlencoded()`/
   * `text()`/`raw()` mounted before Leadroute): the parsed value, used in place of reading
   * `body`. Objects are sanitized and bounded as a body read here is; strings and bytes are
   * parsed by the request's Content-Type as if read here.
   */
  readonly parsedBody?: { readonly value: unknown };
  /** The request ID the host already gave the request (Fastify's `request.id`); answered as X-Request-Id and logged. */
  readonly requestId?: string;
  /**
   * The host's own authentication of the request (its session or token), asked on routes
   * that take an API key: a principal it returns is used instead of a key; undefined falls
   * back to the API key (unless the handler's `apiKeys` option is false).
   */
  readonly hostPrincipal?: () => Promise<Principal | undefined>;
}

/** What the bindings write back. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

/** The one request handler both bindings wrap. It never rejects. */
export type HttpHandler = (request: HttpRequest) => Promise<HttpResponse>;

/** What a route answers: a JSON value by default, or bytes of a given type. */
export type Reply =
  | { readonly status: number; readonly json: unknown; readonly headers?: Record<string, string> }
  | {
      readonly status: number;
      readonly text: string | Uint8Array;
      readonly contentType: string;
      readonly headers?: Record<string, string>;
    }
  | { readonly status: number; readonly empty: true; readonly headers?: Record<string, string> };

/** What a route sees of the request. */
export interface RouteContext {
  readonly request: HttpRequest;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed body (JSON, XML or form), or undefined when there is none. */
  readonly body: unknown;
  /** The media type chosen from the route's `produces` by the Accept header. */
  readonly mediaType: string;
  readonly requestId: string;
  /** The request's {@link HttpRequest.signal}, or one that never aborts: pass it to read-only work. */
  readonly signal: AbortSignal;
}

export type RouteResult = ResultAsync<Reply, LeadrouteError> | Promise<Result<Reply, LeadrouteError>>;

/** A query parameter as the OpenAPI document describes it. */
export interface QueryParamDoc {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
}

/** What the OpenAPI document says of a route beyond what the route table already knows. */
export interface RouteDoc {
  /** The query parameters: a query schema (`schemas/queries.ts`), or a list for the routes not yet moved to one. */
  readonly query?: readonly QueryParamDoc[] | TObject;
  /** The OpenAPI tag. @default derived from the path's first segment */
  readonly tag?: string;
  /** The request body's schema (JSON; XML and form carry the same fields). */
  readonly body?: JsonSchema;
  /** The success body's schema. */
  readonly response?: JsonSchema;
  /** The success status. @default 201 for POST, else 200 */
  readonly status?: number;
  /** Statuses the route answers besides those every route of its kind does, with what they mean. */
  readonly errors?: Readonly<Record<number, string>>;
}

interface RouteBase {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/entities/:id` style; `:name` segments become params. */
  readonly path: string;
  readonly summary: string;
  /** Media types the route can answer with; the first is the default. @default ['application/json'] */
  readonly produces?: readonly string[];
  /** Whether the route reads a body. @default false */
  readonly readsBody?: boolean;
  /** Bounds of its own over the handler's, for a body whose limits are tighter (a lead's fields). */
  readonly bodyLimits?: Partial<BodyLimits>;
  /** For the OpenAPI document. */
  readonly doc?: RouteDoc;
  /**
   * Answers an error of this route with a reply of its own instead of the generic
   * problem+json, for the few endpoints whose spec fixes error bodies or statuses.
   * Consulted for errors raised while reading the request (query, auth,
   * negotiation, body) as well as by `handle`; undefined keeps the generic answer.
   */
  readonly mapError?: (error: LeadrouteError, ctx: RouteErrorContext) => Reply | undefined;
}

/** What a route's `mapError` sees besides the error. */
export interface RouteErrorContext {
  readonly request: HttpRequest;
  readonly params: Readonly<Record<string, string>>;
  /** `request`: while reading the request, before `handle`; `handle`: returned by `handle`. */
  readonly phase: 'request' | 'handle';
  /** The negotiated media type, when negotiation got that far and succeeded. */
  readonly mediaType?: string;
}

/** A route behind an API key. `leadData` routes refuse free accounts with 401. */
export interface KeyRoute extends RouteBase {
  readonly auth: 'key';
  readonly leadData?: boolean;
  handle(ctx: RouteContext & { readonly principal: Principal }): RouteResult;
}

/** A route that needs no API key (feedback: the event ID authorizes). */
export interface OpenRoute extends RouteBase {
  readonly auth: 'none';
  handle(ctx: RouteContext): RouteResult;
}

/** A route behind an API key that operator staff may also call with their own key (#19.6). */
export interface StaffRoute extends RouteBase {
  readonly auth: 'key-or-staff';
  handle(ctx: RouteContext & { readonly principal: Principal | OperatorPrincipal }): RouteResult;
}

export type Route = KeyRoute | StaffRoute | OpenRoute;
