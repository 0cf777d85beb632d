/**
 * The request and response shapes of the API, each defined once (issue #20): the
 * validator, the TypeScript type and the OpenAPI schema all come from these.
 */
export { isHttpUrl, jsonSchema, queryValidator, type Validator, validator } from './define';
export {
  ActivityInputSchema,
  ActivityPageSchema,
  ActivityQueryParams,
  AlertActivityEntrySchema,
  AlertSchema,
  AlertSettingsOverridesSchema,
  AlertSettingsSchema,
} from './alerts';
export {
  INVITATION_DEFAULT_DAYS,
  INVITATION_MAX_DAYS,
  type Invitation,
  InvitationCreateBody,
  InvitationSchema,
} from './connections';
export {
  EntityAliasCreateBody,
  EntityAliasSchema,
  EntityAliasUpdateBody,
  EntityCreateBody,
  EntitySchema,
  EntityUpdateBody,
} from './entities';
export {
  FirehoseQueryParams,
  SearchQueryParams,
  STATS_TYPES,
  StatsQueryParams,
} from './queries';
export {
  ExportCreateBody,
  ExportDownloadQueryParams,
  ExportFileLinkSchema,
  ExportListQueryParams,
  ExportSchema,
} from './exports';
export { FirehoseValidationSchema, SearchHitSchema, SearchResultSchema, StatsRowSchema } from './responses';
export {
  FEEDBACK_TYPES,
  FeedbackBody,
  FeedbackEventQuery,
  FeedbackQueryParams,
  FeedbackResultSchema,
  LeadSummarySchema,
  RecipientFeedbackBody,
  RecipientFeedbackQuery,
} from './feedback';
export { EventQueryBody, EventQueryParams, EventSchema } from './events';
