export {
  type AccountChanges,
  type AccountsApi,
  type ApiKeyInfo,
  hashApiKey,
  type IssuedKey,
  keyIdOf,
  type NewAccount,
} from './accounts/service';
export * from './alerts';
export * from './certificates';
export type { Principal } from './context';
export {
  createOperatorsApi,
  isOperator,
  type OperatorPrincipal,
  type OperatorsApi,
  type OperatorStaff,
  type OperatorStaffConfig,
} from './operators';
export type { AliasesApi } from './entities/aliases';
export { type EntitiesApi, toEntity } from './entities/service';
export { STANDARD_ENTITIES, standardEntity } from './entities/standard';
export { type EntityInput, MODULE_ID_PATTERN } from './entities/validate';
export { type ErrorType, errors, type Issue, type LeadrouteError } from './errors';
export * from './events';
export * from './feedback';
export * from './exports';
export * from './firehose';
export * from './flows';
export * from './http';
export { type Id, idTime, isId, isRuleId, newId, newRuleId } from './ids';
export * from './integrations';
export * from './notifications';
export * from './ports';
export * from './rules';
export * from './search';
export * from './stats';
export { createLeadService, type LeadService, type LeadServiceOptions, missingStorageMethods } from './service';
export type { RetentionJobOptions, RetentionTask, ServiceStartOptions } from './lifecycle';
export { copyData } from './data-copy';
export { isoTime, isTimeZone } from './time';
export { SLICE_MS, type TimeSlices, timeSlices } from './turns';
export { isRecord } from './validation';
export * from './schemas';
