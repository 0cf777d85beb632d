export * from './builder';
export { type CompiledFlow, compileFlow, createFlowCache } from './compile';
export { DEFAULT_LEAD_LIMITS, type IntakeDeps, type LeadLimits } from './context';
export { DUPLICATE_REASON } from './duplicates';
export { DEFAULT_PING_VALIDITY_SECONDS, PING_REASONS } from './auction';
export { createLeadsApi, type IntakeOptions, NO_BID, type IntakeResult, type LeadsApi } from './intake';
export { createFlowsApi, type FlowsApi, type FlowWriteConditions, toFlow } from './service';
export type {
  Cap,
  DuplicateCheck,
  DurationUnit,
  FeedbackConfig,
  Flow,
  FlowConfig,
  FlowRecord,
  FlowSource,
  FlowStep,
  Mapping,
  PingLimit,
  Pricing,
} from '../domain/flows';
export { type FlowValidationContext, validateFlow } from './validate';
export { limitWindow, type LimitWindow } from './windows';
