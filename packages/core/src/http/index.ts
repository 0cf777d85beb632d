export { AUTHENTICATE_CHALLENGE, BASIC_USER, presentedKey } from './auth';
export {
  BODY_MEDIA_TYPES,
  type BodyFormat,
  type BodyLimits,
  type BodyType,
  DEFAULT_BODY_LIMITS,
  parseBody,
  readBody,
} from './body';
export { type CertificateHandlerOptions, certificateRoutes, createCertificateHandler } from './certificate-handler';
export { createHttpHandler, type HttpHandlerOptions, type LeadrouteHttpHandler } from './handler';
export { DEFAULT_THROTTLE, type ThrottleOptions } from './throttle';
export { header } from './headers';
export {
  answerClientError,
  answersEarly,
  type NodeConnectionOptions,
  nodeRequest,
  tooDeepResponse,
  writeEarlyAnswer,
} from './node';
export { json, JSON_OR_XML, JSON_XML_OR_FORM, negotiated } from './reply';
export { type OpenApiDocument, openApiDocument } from './openapi';
export { type JsonSchema, SCHEMAS } from './schemas';
export { type Problem, problemOf, statusOf } from './status';
export type {
  HttpHandler,
  HttpRequest,
  HttpResponse,
  KeyRoute,
  OpenRoute,
  Reply,
  Route,
  RouteContext,
  RouteErrorContext,
  RouteResult,
} from './types';
