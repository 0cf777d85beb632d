export { type ActivityInput, type ActivityPage, ACTIVITY_LIMIT } from './activity';
export {
  type AlertSettings,
  type AlertTypesSettings,
  DEFAULT_ALERT_SETTINGS,
  type NewSourceSettings,
  type NoLeadsSettings,
  type RateTypeSettings,
} from './defaults';
export type { DetectOptions, DetectReport } from './detect';
export type { AlertRunner, RunnerOptions } from './runner';
export { type AlertSettingsApi, type AlertsApi, createAlertsApi } from './service';
export { type AlertSettingsOverrides, effectiveSettings, validateOverrides } from './settings';
