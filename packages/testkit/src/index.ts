export { aCredential, aFlow, aLead, anAccount, anAlias, anApiKey, anEntity, anEvent, aRollupRow, freshId } from './fixtures';
export { failingCases, type RawReader, runSuites, type Suite, type SuiteCase, type StorageHarness } from './harness';
export { accountStoreSuite } from './suites/accounts';
export { aliasStoreSuite } from './suites/aliases';
export { entityStoreSuite } from './suites/entities';
export { alertStoreSuite, anAlert } from './suites/alerts';

import { accountStoreSuite } from './suites/accounts';
import { alertStoreSuite } from './suites/alerts';
import { certificateStoreSuite } from './suites/certificates';
import { aliasStoreSuite } from './suites/aliases';
import { entityStoreSuite } from './suites/entities';
import { eventStoreSuite } from './suites/events';
import { credentialStoreSuite, flowStoreSuite } from './suites/flows';
import { counterStoreSuite, leadStoreSuite } from './suites/leads';
import { rollupStoreSuite } from './suites/rollups';
import { searchIndexSuite } from './suites/search';
import { exportStoreSuite } from './suites/exports';
import { idempotencyStoreSuite } from './suites/idempotency';
import { jobStoreSuite } from './suites/jobs';
import type { Suite } from './harness';

export { eventStoreSuite } from './suites/events';
export { credentialStoreSuite, flowStoreSuite } from './suites/flows';
export { counterStoreSuite, leadStoreSuite } from './suites/leads';
export { rollupStoreSuite } from './suites/rollups';
export { aSearchDocument, searchIndexSuite } from './suites/search';
export { anExport, exportStoreSuite } from './suites/exports';
export { jobStoreSuite } from './suites/jobs';
/** For adapters that offer the optional `storage.leadWrites`: `runSuites(name, setup, [leadWritesSuite])`. */
export { leadWritesSuite } from './suites/lead-writes';
export { idempotencyStoreSuite } from './suites/idempotency';
export { aCertificate, certificateStoreSuite } from './suites/certificates';
export { fileStoreCases, type FileStoreHarness, runFileStoreSuite } from './suites/files';

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
export { createTestService, type ManualClock, manualClock, type TestService } from './flows';
export { spoolSuite } from './spool-suite';
export { countingDriver } from './cloud';
