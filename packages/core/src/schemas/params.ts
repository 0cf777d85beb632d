import { type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { S } from './define';

/** A consent certificate's ID: 40 hexadecimal characters, as consent-certificate services issue. */
export const CertificateIdParam = Type.String({
  pattern: '^[0-9a-fA-F]{40}$',
  description: 'The certificate ID: 40 hexadecimal characters.',
  examples: ['3f786850e387550fdab836ed7e6dc881de23001b'],
});

/** The token of a vendor-supplied ping URL: what alone reaches a certificate's ping data. */
export const PingTokenParam = Type.String({
  pattern: '^[A-Za-z0-9_-]{32,128}$',
  description: 'The ping token: 32 to 128 base64url characters.',
});

/**
 * Each path parameter of the API, by name, as the OpenAPI document shows it; the handler's
 * checks of certificate IDs and ping tokens compile these same schemas. A name not listed is
 * a resource ID (24 hexadecimal characters).
 */
export const PATH_PARAMS: Readonly<Record<string, TSchema>> = {
  cert_id: CertificateIdParam,
  token: PingTokenParam,
  recipient_name: Type.String({ maxLength: 200, description: 'The recipient integration name.' }),
  key: Type.String({ maxLength: 200, description: 'An alert key.' }),
};

/** The schema of path parameter `name`. */
export const pathParam = (name: string): TSchema => PATH_PARAMS[name] ?? S.id();

/** A compiled check of a path parameter's schema. */
export const paramCheck = (schema: TSchema) => {
  const compiled = TypeCompiler.Compile(schema);
  return (value: unknown): value is string => compiled.Check(value);
};
