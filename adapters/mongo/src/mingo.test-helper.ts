import { Aggregator, Query, update, updateOne } from 'mingo';
import { isDeepStrictEqual } from 'node:util';
import type { Filter, UpdateFilter } from 'mongodb';
import type { Pipeline, SortSpec } from './queries';

/**
 * The driver operations the adapter uses, run by mingo (MongoDB's query and update
 * language in process) over an array of documents, so the query builders' documents
 * are executed for their meaning where no server is available. Each takes exactly
 * what the store passes to the driver.
 */

type Criteria = Record<string, unknown>;
// The driver's filter types are stricter than mingo's loose criteria; the shapes are the same documents.
const criteria = <T>(filter: Filter<T>): Criteria => filter as unknown as Criteria;

/** `collection.find(filter).sort(sort).toArray()` */
export function find<T extends object>(docs: readonly T[], filter: Filter<T>, sort?: SortSpec): T[] {
  const cursor = new Query(criteria(filter)).find<T>(docs as T[]);
  return (sort ? cursor.sort({ ...sort }) : cursor).all();
}

/** `collection.findOne(filter)` */
export const findOne = <T extends object>(docs: readonly T[], filter: Filter<T>): T | null =>
  find(docs, filter)[0] ?? null;

/** `collection.countDocuments(filter)` */
export const countDocuments = <T extends object>(docs: readonly T[], filter: Filter<T>): number =>
  find(docs, filter).length;

/** `collection.findOneAndUpdate(filter, update, { sort, returnDocument: 'after' })`, changing the document in place. */
export function findOneAndUpdate<T extends object>(
  docs: T[],
  filter: Filter<T>,
  modifier: UpdateFilter<T>,
  sort: SortSpec = {},
): T | null {
  const result = updateOne(
    docs as Record<string, unknown>[],
    criteria(filter),
    modifier as never,
    Object.keys(sort).length > 0 ? { sort: { ...sort } } : {},
  );
  if (result.matchedCount === 0) return null;
  // mingo may put a new object in the array rather than change the old one: read it back.
  return result.modifiedIndex === undefined
    ? (find(docs, filter, Object.keys(sort).length > 0 ? sort : undefined)[0] ?? null)
    : (docs[result.modifiedIndex] ?? null);
}

/** `collection.updateOne(filter, update)`: how many matched. */
export function updateOneIn<T extends object>(
  docs: T[],
  filter: Filter<T>,
  modifier: UpdateFilter<T>,
): { matchedCount: number } {
  return {
    matchedCount: updateOne(docs as Record<string, unknown>[], criteria(filter), modifier as never).matchedCount,
  };
}

/** `collection.deleteMany(filter)`: removes from `docs` in place and answers how many. */
export function deleteMany<T extends object>(docs: T[], filter: Filter<T>): { deletedCount: number } {
  const query = new Query(criteria(filter));
  const kept = docs.filter((d) => !query.test(d as Record<string, unknown>));
  const deletedCount = docs.length - kept.length;
  docs.splice(0, docs.length, ...kept);
  return { deletedCount };
}

/** `collection.aggregate(pipeline).toArray()` */
export const aggregate = <R = Record<string, unknown>>(docs: readonly object[], pipeline: Pipeline): R[] =>
  new Aggregator(pipeline, {}).run(docs as Record<string, unknown>[]) as R[];

/** What the server throws for a duplicate key (code 11000), as `isDuplicateKey` reads it. */
export class DuplicateKey extends Error {
  readonly code = 11000;
}

const isOperatorObject = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  !(value instanceof Date) &&
  !Array.isArray(value) &&
  Object.keys(value).some((k) => k.startsWith('$'));

/**
 * The fields an upsert's insert takes from the filter: its top-level equalities (and those of `$and` clauses), as the
 * server does.
 */
function seedOf(filter: Criteria): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(value))
      Object.assign(seed, ...value.map((clause) => seedOf(clause as Criteria)));
    else if (!field.startsWith('$') && !isOperatorObject(value)) seed[field] = structuredClone(value);
  }
  return seed;
}

/** `collection.insertOne(doc)`: a duplicate `_id` is refused with a duplicate key, as the primary index does. */
export function insertOne<T extends object>(docs: T[], doc: T): void {
  const id = (doc as { _id?: unknown })._id;
  if (id !== undefined && docs.some((d) => isDeepStrictEqual((d as { _id?: unknown })._id, id)))
    throw new DuplicateKey(`E11000 duplicate key error index: _id_`);
  docs.push(doc);
}

/**
 * `collection.updateOne(filter, update, { upsert: true })`: updates the first match;
 * with none, inserts the filter's equality fields with the update applied, which
 * meets a duplicate `_id` when the document exists but did not match.
 */
export function upsertOne<T extends object>(
  docs: T[],
  filter: Filter<T>,
  modifier: UpdateFilter<T>,
): { matchedCount: number; upserted: boolean } {
  const { matchedCount } = updateOneIn(docs, filter, modifier);
  if (matchedCount > 0) return { matchedCount, upserted: false };
  const doc = seedOf(criteria(filter));
  update(doc, modifier as never);
  insertOne(docs, doc as T);
  return { matchedCount: 0, upserted: true };
}

/**
 * `collection.replaceOne(filter, replacement, { upsert })`: the match (or, upserting, a new document) becomes the
 * replacement, keeping `_id`.
 */
export function replaceOne<T extends object>(
  docs: T[],
  filter: Filter<T>,
  replacement: T,
  upsert = false,
): { matchedCount: number } {
  const query = new Query(criteria(filter));
  const at = docs.findIndex((d) => query.test(d as Record<string, unknown>));
  if (at >= 0) {
    docs[at] = { ...replacement, _id: (docs[at] as { _id?: unknown })._id } as T;
    return { matchedCount: 1 };
  }
  if (upsert) insertOne(docs, { ...seedOf(criteria(filter)), ...replacement } as T);
  return { matchedCount: 0 };
}
