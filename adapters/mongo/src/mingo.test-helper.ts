import { Query, updateOne } from 'mingo';
import type { Filter, UpdateFilter } from 'mongodb';
import type { SortSpec } from './queries';

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
export const findOne = <T extends object>(docs: readonly T[], filter: Filter<T>): T | null => find(docs, filter)[0] ?? null;

/** `collection.countDocuments(filter)` */
export const countDocuments = <T extends object>(docs: readonly T[], filter: Filter<T>): number => find(docs, filter).length;

/** `collection.findOneAndUpdate(filter, update, { sort, returnDocument: 'after' })`, changing the document in place. */
export function findOneAndUpdate<T extends object>(docs: T[], filter: Filter<T>, modifier: UpdateFilter<T>, sort: SortSpec): T | null {
  const result = updateOne(docs as Record<string, unknown>[], criteria(filter), modifier as never, { sort: { ...sort } });
  if (result.matchedCount === 0) return null;
  // mingo may put a new object in the array rather than change the old one: read it back.
  return result.modifiedIndex === undefined ? (find(docs, filter, sort)[0] ?? null) : (docs[result.modifiedIndex] ?? null);
}

/** `collection.updateOne(filter, update)`: how many matched. */
export function updateOneIn<T extends object>(docs: T[], filter: Filter<T>, modifier: UpdateFilter<T>): { matchedCount: number } {
  return { matchedCount: updateOne(docs as Record<string, unknown>[], criteria(filter), modifier as never).matchedCount };
}

/** `collection.deleteMany(filter)`: removes from `docs` in place and answers how many. */
export function deleteMany<T extends object>(docs: T[], filter: Filter<T>): { deletedCount: number } {
  const query = new Query(criteria(filter));
  const kept = docs.filter((d) => !query.test(d as Record<string, unknown>));
  const deletedCount = docs.length - kept.length;
  docs.splice(0, docs.length, ...kept);
  return { deletedCount };
}
