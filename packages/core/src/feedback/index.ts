export { createFeedbackApi, type FeedbackApi } from './service';
export {
  createFeedbackIntegrationRegistry,
  type FeedbackIntegrationRegistry,
  STANDARD_FEEDBACK_NAME,
  standardFeedbackIntegration,
} from './integrations';
export { MAX_REASON_LENGTH, parseOccurredAt, type ValidFeedback, validateFeedback } from './input';
export type { FeedbackDeps } from './lookup';
export type {
  FeedbackError,
  FeedbackInput,
  FeedbackResult,
  FeedbackType,
  InboundFeedback,
  InboundFeedbackModule,
  LeadSummary,
  RenderedFeedback,
} from './types';
