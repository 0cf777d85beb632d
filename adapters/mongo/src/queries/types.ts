import type { Filter } from 'mongodb';

/** A sort document: field to direction, in priority order. */
export type SortSpec = Readonly<Record<string, 1 | -1>>;

/** A find: which documents, in which order. */
export interface FindQuery<T> {
  readonly filter: Filter<T>;
  readonly sort: SortSpec;
}
