/**
 * The one schema source (issue #20): each request body, query and response shape is a
 * TypeBox schema, which is at once the runtime validator (compiled once), the TypeScript
 * type (`Static<typeof Schema>`) and the JSON Schema 2020-12 the OpenAPI document shows.
 *
 * Why TypeBox over zod 4: its schemas are JSON Schema already, so the OpenAPI document embeds
 * them as they are, with no conversion step to drift; and its compiled validator checks a valid
 * entity body as fast as zod 4 does (`npm run bench -- validation`: ratio 1.03, 336k vs 324k/s),
 * while a refused body costs it about twice zod's time (47k vs 87k/s), off the hot path.
 */
import {
  FormatRegistry,
  Kind,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  Type,
  TypeRegistry,
} from '@sinclair/typebox';
import { TypeCompiler, type ValueError, type ValueErrorIterator, ValueErrorType } from '@sinclair/typebox/compiler';
import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import { isId } from '../ids';
import { isEmailAddress } from '../rules/fields/email';
import { isTimeZone } from '../time';

/** The words a property's problem is told in: `<name> <message>.`, e.g. `name must be a string…`. */
export interface Described {
  readonly 'x-message'?: string;
  /** The whole sentence for a bad item of an array property, reported at `/<name>/<index>` (one issue per item). */
  readonly 'x-item-message'?: string;
  /** Completes the sentence when the property is absent. @default 'is required' */
  readonly 'x-missing-message'?: string;
}

/** An http or https URL of at most 2048 characters. */
export const isHttpUrl = (value: string): boolean => {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

// Formats the schemas name; OpenAPI shows them as annotations, the validators check them.
FormatRegistry.Set('leadroute-id', isId);
FormatRegistry.Set('iana-time-zone', isTimeZone);
FormatRegistry.Set('http-url', isHttpUrl);
FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));
// Spaces around the address are allowed here (a body's addresses are trimmed); a pattern refuses them where they are not.
FormatRegistry.Set('email', (value) => isEmailAddress(value.trim()));

/**
 * An array of distinct items. TypeBox checks `uniqueItems` by hashing each item (BigInt FNV-1a:
 * several microseconds per item), which made the entity body 5x slower to check than zod
 * (`npm run bench -- validation`); items here are strings and numbers, which a Set compares.
 * The schema still says `uniqueItems: true` for OpenAPI.
 */
const DISTINCT = 'LeadrouteDistinctArray';
const itemCheckers = new WeakMap<TSchema, (value: unknown) => boolean>();
TypeRegistry.Set<{ items: TSchema; maxItems: number }>(DISTINCT, (schema, value) => {
  if (!Array.isArray(value) || value.length > schema.maxItems) return false;
  const check = itemCheckers.get(schema.items);
  for (const item of value) if (!check?.(item)) return false;
  return new Set(value).size === value.length;
});
function distinctArray<T extends TSchema>(items: T, options: { maxItems: number; 'x-message': string }) {
  const compiled = TypeCompiler.Compile(items);
  itemCheckers.set(items, (value) => compiled.Check(value));
  return Type.Unsafe<Static<T>[]>({ [Kind]: DISTINCT, type: 'array', items, uniqueItems: true, ...options });
}

/**
 * Any plain object, typed as `object`: a module's configuration, whose keys the module checks.
 * `object` (not a string-keyed record) so that a configuration interface (`CustomJsonConfig`)
 * is assignable to it.
 */
const PLAIN_OBJECT = 'LeadroutePlainObject';
TypeRegistry.Set(
  PLAIN_OBJECT,
  (_schema, value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

/** Shapes every schema module uses. */
export const S = {
  id: (message = 'must be a 24-character hexadecimal ID') =>
    Type.String({ format: 'leadroute-id', pattern: '^[0-9a-fA-F]{24}$', 'x-message': message }),
  dateTime: () => Type.String({ format: 'date-time' }),
  nullable: <T extends TSchema>(schema: T, message?: string) =>
    Type.Union([schema, Type.Null()], message === undefined ? {} : { 'x-message': message }),
  text: (max: number, { required = false, description }: { required?: boolean; description?: string } = {}) =>
    Type.String({
      maxLength: max,
      ...(required ? { pattern: '\\S' } : {}),
      ...(description ? { description } : {}),
      'x-message': `must be a ${required ? 'non-empty ' : ''}string of at most ${max} characters`,
    }),
  boolean: () => Type.Boolean({ 'x-message': 'must be true or false' }),
  timeZone: () =>
    Type.String({ format: 'iana-time-zone', 'x-message': 'must be an IANA time zone such as America/New_York' }),
  url: () => Type.String({ format: 'http-url', maxLength: 2048, 'x-message': 'must be an http or https URL' }),
  oneOf: <const V extends readonly (string | null)[]>(values: V) =>
    Type.Union(
      values.map((v) => (v === null ? Type.Null() : Type.Literal(v))),
      { 'x-message': `must be one of ${values.map((v) => (v === null ? 'null' : v)).join(', ')}` },
    ) as unknown as TSchema & { static: V[number] },
  plainObject: (options: { description?: string; 'x-message'?: string } = {}) =>
    Type.Unsafe<object>({ [Kind]: PLAIN_OBJECT, type: 'object', ...options }),
  arrayOf: <T extends TSchema>(items: T, message: string, { max = 1000, unique = false } = {}) =>
    unique
      ? distinctArray(items, { maxItems: max, 'x-message': message })
      : Type.Array(items, { maxItems: max, 'x-message': message }),
};

/** A body or query validator: the value with only the schema's properties, or each problem. */
export type Validator<T> = (value: unknown) => Result<T, Issue[]>;

/** A union's errors as those of its variants, less the `expected null` of a nullable: items keep their paths. */
function variantErrors(error: ValueError): ValueError[] {
  if (error.type !== ValueErrorType.Union || error.errors.length === 0) return [error];
  return error.errors.flatMap((variant) =>
    [...variant].filter((e) => e.type !== ValueErrorType.Null).flatMap(variantErrors),
  );
}

function issuesOf(schema: TObject, errors: ValueErrorIterator): Issue[] {
  const issues = new Map<string, Issue>();
  const items = new Map<string, Issue>();
  for (const error of errors) {
    const key = error.path.split('/')[1];
    if (key === undefined || key === '') {
      if (!issues.has('')) issues.set('', { path: '', message: 'The body must be a JSON object.' });
      continue;
    }
    const property = schema.properties[key] as (TSchema & Described) | undefined;
    const itemMessage = property?.['x-item-message'];
    if (itemMessage !== undefined) {
      const variants = variantErrors(error);
      if (!variants.some((e) => e.path === `/${key}`)) {
        for (const e of variants) {
          const [, name, index] = e.path.split('/');
          const path = `/${name}/${index}`;
          if (name === key && index !== undefined && /^\d+$/.test(index) && !items.has(path))
            items.set(path, { path, message: itemMessage });
        }
        if (variants.length > 0) continue;
      }
    }
    if (issues.has(key)) continue;
    const missing = error.path === `/${key}` && error.value === undefined;
    const message = missing
      ? (property?.['x-missing-message'] ?? 'is required')
      : (property?.['x-message'] ?? error.message.toLowerCase());
    issues.set(key, { path: `/${key}`, message: `${key} ${message}.` });
  }
  // A property refused as a whole (too many items, not an array) is not also refused item by item.
  for (const [path, issue] of items) if (!issues.has(path.split('/')[1] ?? '')) issues.set(path, issue);
  return [...issues.values()];
}

/**
 * Compiles `schema` into a validator. Properties outside the schema (read-only or unknown)
 * are left out of what it returns; each problem names its top-level property as a JSON pointer.
 */
export function validator<T extends TObject>(schema: T): Validator<Static<T>> {
  const compiled = TypeCompiler.Compile(schema);
  const keys = Object.keys(schema.properties);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return err([{ path: '', message: 'The body must be a JSON object.' }]);
    if (!compiled.Check(value)) return err(issuesOf(schema, compiled.Errors(value)));
    const out: Record<string, unknown> = {};
    for (const key of keys) if (Object.hasOwn(value, key)) out[key] = (value as Record<string, unknown>)[key];
    return ok(out as Static<T>);
  };
}

/** The schema at `segments` below `schema`: through object properties, array items and a union's variants. */
function schemaAt(schema: TSchema, segments: readonly string[]): TSchema | undefined {
  let node: TSchema | undefined = schema;
  for (const segment of segments) {
    node = node === undefined ? undefined : childOf(node, segment);
  }
  return node;
}

function childOf(node: TSchema, segment: string): TSchema | undefined {
  if (node[Kind] === 'Union') {
    for (const variant of node.anyOf as TSchema[]) {
      const child = childOf(variant, segment);
      if (child !== undefined) return child;
    }
    return undefined;
  }
  if (node.type === 'object' && node.properties !== undefined) return (node.properties as TProperties)[segment];
  if (node.type === 'array' && /^\d+$/.test(segment)) return node.items as TSchema | undefined;
  return undefined;
}

/** The schema's words, or those of its one non-null variant (a nullable value is told as what it may be). */
function described(node: TSchema | undefined): (TSchema & Described) | undefined {
  if (node === undefined || node['x-message'] !== undefined || node[Kind] !== 'Union') return node;
  const variants = (node.anyOf as TSchema[]).filter((v) => v[Kind] !== 'Null');
  return variants.length === 1 ? { ...variants[0], ...node, 'x-message': variants[0]?.['x-message'] } : node;
}

/**
 * Compiles a schema whose problems are told at their full JSON pointer, however deep:
 * `/steps/0/caps/1/maximum must be an integer from 0 to ….` Each problem's words are the
 * `x-message` of the schema at its path (`x-missing-message`, else `x-message`, when the
 * value is absent); a value refused as a whole is not also refused part by part. It checks
 * only: the value is returned as given, for the caller to read.
 */
export function deepValidator<T extends TObject>(schema: T): Validator<Static<T>> {
  const compiled = TypeCompiler.Compile(schema);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return err([{ path: '', message: 'The body must be a JSON object.' }]);
    if (compiled.Check(value)) return ok(value as Static<T>);
    const issues: Issue[] = [];
    const covered = (path: string) => issues.some((i) => path === i.path || path.startsWith(`${i.path}/`));
    for (const error of [...compiled.Errors(value)].flatMap(variantErrors)) {
      if (covered(error.path)) continue;
      const node = described(schemaAt(schema, error.path.split('/').slice(1)));
      const words =
        error.value === undefined
          ? (node?.['x-missing-message'] ?? node?.['x-message'] ?? 'is required')
          : (node?.['x-message'] ?? error.message.toLowerCase());
      issues.push({ path: error.path, message: `${error.path} ${words}.` });
    }
    return err(issues);
  };
}

/**
 * Calls `visit` with each value of `value` that sits where `schema` has a schema of `kind`,
 * and its JSON pointer: how a body's rule sets, which the rules engine checks, are found.
 * Values of the wrong shape around them are passed over (the schema's check reports those).
 */
export function eachOfKind(
  schema: TSchema,
  value: unknown,
  kind: string,
  visit: (value: unknown, path: string) => void,
  path = '',
): void {
  if (value === undefined || value === null) return;
  if (schema[Kind] === kind) visit(value, path);
  else if (schema[Kind] === 'Union') for (const v of schema.anyOf as TSchema[]) eachOfKind(v, value, kind, visit, path);
  else if (schema.type === 'object' && schema.properties !== undefined && isPlainObject(value)) {
    for (const [key, property] of Object.entries(schema.properties as TProperties))
      eachOfKind(property, value[key], kind, visit, `${path}/${key}`);
  } else if (schema.type === 'array' && schema.items !== undefined && Array.isArray(value))
    value.forEach((item: unknown, i) => {
      eachOfKind(schema.items as TSchema, item, kind, visit, `${path}/${i}`);
    });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A query string's text as the property's type: integers and booleans are converted, the rest left as text. */
function converted(property: TSchema | undefined, text: string): unknown {
  if (property?.type === 'integer' && /^-?\d{1,15}$/.test(text)) return Number(text);
  if (property?.type === 'boolean') {
    const lower = text.toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    if (lower === 'false' || lower === '0') return false;
  }
  return text;
}

/**
 * Compiles a query schema: each parameter given once and named by the schema (`unknown`
 * completes the sentence for one that is not), converted to its type, then checked.
 */
export function queryValidator<T extends TObject>(
  schema: T,
  unknown: string,
): (params: URLSearchParams) => Result<Static<T>, Issue[]> {
  const compiled = TypeCompiler.Compile(schema);
  return (params) => {
    const issues: Issue[] = [];
    const value: Record<string, unknown> = {};
    for (const key of new Set(params.keys())) {
      const property = schema.properties[key];
      if (property === undefined) issues.push({ path: `/${key}`, message: `${key} ${unknown}.` });
      else if (params.getAll(key).length > 1) issues.push({ path: `/${key}`, message: `${key} must be given once.` });
      else value[key] = converted(property, params.get(key) ?? '');
    }
    if (!compiled.Check(value))
      for (const issue of issuesOf(schema, compiled.Errors(value)))
        if (!issues.some((i) => i.path === issue.path)) issues.push(issue);
    return issues.length > 0 ? err(issues) : ok(value as Static<T>);
  };
}

/** The same properties, each optional: the body of an update, where absent fields keep their value. */
export const optionalAll = <T extends TProperties>(properties: T) => Type.Partial(Type.Object(properties));

/**
 * `schema` as JSON Schema 2020-12 for the OpenAPI document: TypeBox's own markers are symbols
 * (JSON leaves them out); the validator-only words and formats stay as annotations.
 */
export const jsonSchema = (schema: TSchema): Record<string, unknown> =>
  JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
