// The main entry loads without vitest (in ESM and CommonJS): record builders, the in-memory
// test service and its clock. The conformance suites, which import vitest, are in
// `@leadroute/testkit/suites`.
export {
  aCredential,
  aFlow,
  aLead,
  anAccount,
  anAlias,
  anApiKey,
  anEntity,
  anEvent,
  aRollupRow,
  freshId,
} from './fixtures';
export { aCertificate, anAlert, anExport, aSearchDocument } from './records';
export type { FileStoreHarness, RawReader, SpoolFactory, StorageHarness, Suite, SuiteCase } from './types';
export { createTestService, type ManualClock, manualClock, type TestService } from './flows';
export type { InjectRequest, InjectResponse } from './inject';
export { UnwrapError, unwrap } from './unwrap';
export { countingDriver } from './cloud';
