import type * as queries from '../queries';

/** Records that a query builder was executed by mingo; queries.test.ts fails on any builder never recorded. */
export type Checks = (...names: (keyof typeof queries)[]) => void;
