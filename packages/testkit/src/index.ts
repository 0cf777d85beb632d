export { anAccount, anAlias, anApiKey, anEntity, freshId } from './fixtures';
export { failingCases, type RawReader, runSuites, type Suite, type SuiteCase, type StorageHarness } from './harness';
export { accountStoreSuite } from './suites/accounts';
export { aliasStoreSuite } from './suites/aliases';
export { entityStoreSuite } from './suites/entities';

import { accountStoreSuite } from './suites/accounts';
import { aliasStoreSuite } from './suites/aliases';
import { entityStoreSuite } from './suites/entities';
import type { Suite } from './harness';

/** Every storage suite; an adapter runs them all with `runSuites(name, setup, storageSuites)`. */
export const storageSuites: readonly Suite[] = [accountStoreSuite, entityStoreSuite, aliasStoreSuite];
export { createTestService, type ManualClock, manualClock, type TestService } from './flows';
export { spoolSuite } from './spool-suite';
