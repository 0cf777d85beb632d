export {
  type AwsFirehoseService,
  type AzureFirehoseService,
  cleanPrefix,
  type FirehoseConfig,
  type FirehoseConfigInput,
  type FirehoseTarget,
  firehoseTargets,
  isBucketName,
  type LegacyFirehoseConfig,
  normalizeFirehoseConfig,
} from './config';
export {
  type CloudCredential,
  createFirehoseDelivery,
  type DeliveryOutcome,
  type FirehoseDelivery,
  type FirehoseDeliveryDeps,
  type FirehoseEvent,
  firehoseObjectKey,
  type RetryReport,
} from './delivery';
export { type PutOne, putMany } from './put-many';
export { type FirehoseCheck, parseFirehoseQuery, type QueryParams, verificationFileName } from './query';
export { type FirehoseValidation, type FirehoseValidationDeps, validateFirehose } from './validate';
export { cloudCredential, credentialResolver } from './credentials';
export { keepSecrets, withoutSecrets } from './secrets';
export {
  createFirehoseApi,
  type FirehoseApi,
  type FirehoseOptions,
  type FirehoseRunner,
  type FirehoseRunnerOptions,
  observeFirehose,
} from './service';
