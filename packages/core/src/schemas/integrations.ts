import { type Static, Type } from '@sinclair/typebox';
import { S } from './define';

/**
 * The configuration of the built-in HTTP deliveries (#24.3), one schema for the four:
 * `platform-custom.outbound.json`, `.form`, `.xml` and `.get`. Each path reads the answer:
 * a dotted path or a JSONPath (`$.result.status`) in a JSON answer, an XPath
 * (`/response/status`) in an XML answer. Each pattern is a regular expression (RE2: no
 * backtracking) over the answer's text whose first group is the value.
 */
const path = (what: string) =>
  Type.Optional(
    Type.String({
      maxLength: 500,
      'x-message': 'must be a dotted path, a JSONPath or an XPath of at most 500 characters',
      description: `Where the answer says ${what}: a dotted path or JSONPath (JSON), an XPath (XML).`,
    }),
  );
const pattern = (what: string) =>
  Type.Optional(
    Type.String({
      maxLength: 2000,
      'x-message': 'must be a regular expression of at most 2000 characters',
      description: `A regular expression over the answer's text; its first group is ${what}.`,
    }),
  );

export const CustomHttpConfigSchema = Type.Object(
  {
    url: S.url(),
    method: Type.Optional(S.oneOf(['POST', 'PUT'] as const)),
    headers: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 4000 }), {
        maxProperties: 50,
        'x-message': 'must be an object of at most 50 text headers',
      }),
    ),
    basic_auth: Type.Optional(
      Type.Object(
        {
          username: Type.String({ maxLength: 500, 'x-message': 'must be a string' }),
          password: Type.String({ maxLength: 500, 'x-message': 'must be a string' }),
        },
        { 'x-message': 'must be an object with username and password', description: 'Never recorded on events.' },
      ),
    ),
    body_template: Type.Optional(
      Type.String({
        maxLength: 20_000,
        'x-message': 'must be a template of at most 20000 characters',
        description:
          'The whole body, as a template over lead, lead_id and event_id, instead of the encoded lead (JSON, form and XML).',
      }),
    ),
    xml_root: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,99}$',
        'x-message': 'must be an XML element name',
        description: 'XML: the root element. Default lead.',
      }),
    ),
    outcome_path: path('the outcome'),
    success_value: Type.Optional(
      Type.String({ maxLength: 200, 'x-message': 'must be a string', description: 'The outcome meaning success.' }),
    ),
    outcome_search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        'x-message': 'must be a non-empty string',
        description: 'Success when the answer contains this text (any case), failure otherwise.',
      }),
    ),
    outcome_pattern: pattern('the outcome'),
    reason_path: path('why'),
    reason_pattern: pattern('the reason'),
    price_path: path('the price'),
    price_pattern: pattern('the price'),
    reference_path: path("the recipient's record ID"),
    reference_pattern: pattern("the recipient's record ID"),
    retries: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 5,
        'x-message': 'must be an integer from 0 to 5',
        description: 'Tries again after a connection error (no answer at all), with doubling pauses. Default 0.',
      }),
    ),
    event_id_field: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Literal(false)], {
        'x-message': 'must be a field name or false',
        description: 'The body field carrying the delivery event ID (default event_id); false: the header only.',
      }),
    ),
  },
  {
    title: 'CustomHttpConfig',
    examples: [
      {
        url: 'https://buyer.example/leads',
        basic_auth: { username: 'acme', password: 's3cret' },
        outcome_path: '$.result.status',
        success_value: 'accepted',
        price_path: '$.result.bid',
        retries: 2,
      },
    ],
  },
);
export type CustomHttpConfig = Static<typeof CustomHttpConfigSchema>;
