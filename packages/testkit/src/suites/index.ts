// `@leadroute/testkit/suites`: the conformance suites every storage adapter runs. They
// register vitest tests, so this entry needs vitest (an optional peer of the testkit) and
// is meant to be imported from test files.
import { accountStoreSuite } from './accounts';
import { alertStoreSuite } from './alerts';
import { certificateStoreSuite } from './certificates';
import { aliasStoreSuite } from './aliases';
import { entityStoreSuite } from './entities';
import { eventStoreSuite } from './events';
import { credentialStoreSuite, flowStoreSuite } from './flows';
import { counterStoreSuite, leadStoreSuite } from './leads';
import { rollupStoreSuite } from './rollups';
import { searchIndexSuite } from './search';
import { exportStoreSuite } from './exports';
import { idempotencyStoreSuite } from './idempotency';
import { jobStoreSuite } from './jobs';
import type { Suite } from '../types';

export { failingCases, type RawReader, runSuites, type Suite, type SuiteCase, type StorageHarness } from '../harness';
export {
  accountStoreSuite,
  aliasStoreSuite,
  alertStoreSuite,
  certificateStoreSuite,
  entityStoreSuite,
  eventStoreSuite,
  exportStoreSuite,
  jobStoreSuite,
};
export { counterStoreSuite, credentialStoreSuite, flowStoreSuite, leadStoreSuite, rollupStoreSuite, searchIndexSuite };
export { idempotencyStoreSuite };
/** For adapters that offer the optional `storage.leadWrites`: `runSuites(name, setup, [leadWritesSuite])`. */
export { leadWritesSuite } from './lead-writes';
export { fileStoreCases, type FileStoreHarness, runFileStoreSuite } from './files';
export { type SpoolFactory, spoolSuite } from '../spool-suite';

/** Every storage suite; an adapter runs them all with `runSuites(name, setup, storageSuites)`. */
export const storageSuites: readonly Suite[] = [
  accountStoreSuite,
  entityStoreSuite,
  aliasStoreSuite,
  flowStoreSuite,
  leadStoreSuite,
  eventStoreSuite,
  counterStoreSuite,
  credentialStoreSuite,
  rollupStoreSuite,
  alertStoreSuite,
  searchIndexSuite,
  exportStoreSuite,
  jobStoreSuite,
  certificateStoreSuite,
  idempotencyStoreSuite,
];
