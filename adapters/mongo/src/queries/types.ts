import type { Filter } from 'mongodb';

/** A sort document: field to direction, in priority order. */
export type SortSpec = Readonly<Record<string, 1 | -1>>;

/** A find: which documents, in which order. */
export interface FindQuery<T> {
  readonly filter: Filter<T>;
  readonly sort: SortSpec;
}

/** A find with a page size. */
export interface PageQuery<T> extends FindQuery<T> {
  readonly limit: number;
}

/** An aggregation pipeline: the stages, in order, as the driver's `aggregate` takes them. */
export type Pipeline = Record<string, unknown>[];

/** A page size as the server takes it: a whole number, never negative. */
export const pageSize = (limit: number): number => Math.max(0, Math.floor(limit));
