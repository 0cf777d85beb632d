export { AUTHENTICATE_CHALLENGE, BASIC_USER, presentedKey } from './auth';
export { BODY_MEDIA_TYPES, type BodyFormat, type BodyLimits, DEFAULT_BODY_LIMITS, parseBody, readBody } from './body';
export { createHttpHandler, type HttpHandlerOptions } from './handler';
export { header } from './headers';
export { json, JSON_OR_XML, negotiated } from './reply';
export { type OpenApiDocument, openApiDocument } from './openapi';
export { type JsonSchema, SCHEMAS } from './schemas';
export { type Problem, problemOf, statusOf } from './status';
export type { HttpHandler, HttpRequest, HttpResponse, KeyRoute, OpenRoute, Reply, Route, RouteContext, RouteErrorContext, RouteResult } from './types';
