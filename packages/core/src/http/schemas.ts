import type { TObject, TSchema } from '@sinclair/typebox';
import { jsonSchema } from '../schemas/define';
import {
  EntityAliasCreateBody,
  EntityAliasSchema,
  EntityAliasUpdateBody,
  EntityCreateBody,
  EntitySchema,
  EntityUpdateBody,
} from '../schemas/entities';
import { ActivityPageSchema, AlertSchema, AlertSettingsSchema } from '../schemas/alerts';
import { ExportCreateBody, ExportFileLinkSchema, ExportSchema } from '../schemas/exports';
import { EventQueryBody, EventSchema } from '../schemas/events';
import { FeedbackBody, FeedbackResultSchema, RecipientFeedbackBody } from '../schemas/feedback';
import {
  FirehoseValidationSchema,
  IntakeResultSchema,
  PingDataSchema,
  ProblemSchema,
  SearchHitSchema,
  SearchResultSchema,
  StatsRowSchema,
} from '../schemas/responses';
import { FlowBody, FlowSchema, FlowUpdateBody, LeadBody } from '../schemas/flows';
import { DEFAULT_ALERT_SETTINGS } from '../alerts/defaults';
import { RuleSchema, RuleSetSchema } from '../schemas/rules';
import { InvitationCreateBody, InvitationSchema } from '../schemas/connections';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [key: string]: unknown };

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * `schema` as `base` (by reference) plus the properties `keys`, which it adds or narrows:
 * its title, examples and the keys' requirement kept.
 */
function extending(base: string, schema: TObject, keys: readonly string[]): JsonSchema {
  const whole = jsonSchema(schema);
  const required = (schema.required ?? []).filter((k) => keys.includes(k));
  return {
    title: whole.title,
    allOf: [
      ref(base),
      {
        type: 'object',
        ...(required.length > 0 ? { required } : {}),
        properties: Object.fromEntries(keys.map((k) => [k, jsonSchema(schema.properties[k] as TSchema)])),
      },
    ],
    ...(whole.examples ? { examples: whole.examples } : {}),
  };
}

/** Schemas shared by the OpenAPI document, referenced as `#/components/schemas/<name>`. */
export const SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Problem: jsonSchema(ProblemSchema),
  Rule: jsonSchema(RuleSchema),
  RuleSet: jsonSchema(RuleSetSchema),
  EntityCreateBody: jsonSchema(EntityCreateBody),
  EntityUpdateBody: jsonSchema(EntityUpdateBody),
  Entity: jsonSchema(EntitySchema),
  EntityAliasCreateBody: jsonSchema(EntityAliasCreateBody),
  EntityAliasUpdateBody: jsonSchema(EntityAliasUpdateBody),
  EntityAlias: jsonSchema(EntityAliasSchema),
  StatsRow: jsonSchema(StatsRowSchema),
  SearchHit: jsonSchema(SearchHitSchema),
  SearchResult: jsonSchema(SearchResultSchema),
  FirehoseValidation: jsonSchema(FirehoseValidationSchema),
  ExportCreateBody: jsonSchema(ExportCreateBody),
  Export: jsonSchema(ExportSchema),
  ExportFileLink: jsonSchema(ExportFileLinkSchema),
  Alert: jsonSchema(AlertSchema),
  ActivityPage: jsonSchema(ActivityPageSchema),
  AlertSettings: { ...jsonSchema(AlertSettingsSchema), examples: [DEFAULT_ALERT_SETTINGS] },
  FeedbackBody: jsonSchema(FeedbackBody),
  RecipientFeedbackBody: jsonSchema(RecipientFeedbackBody),
  FeedbackResult: jsonSchema(FeedbackResultSchema),
  FlowInput: jsonSchema(FlowBody),
  // The update body and the flow as shown are the input and a few more fields: said by reference, not repeated.
  FlowUpdateBody: extending('FlowInput', FlowUpdateBody, ['version']),
  LeadBody: jsonSchema(LeadBody),
  Flow: extending('FlowInput', FlowSchema, ['id', 'version', 'enabled', 'created_at', 'updated_at']),
  IntakeResult: jsonSchema(IntakeResultSchema),
  InvitationCreateBody: jsonSchema(InvitationCreateBody),
  Invitation: jsonSchema(InvitationSchema),
  PingData: jsonSchema(PingDataSchema),
  Event: jsonSchema(EventSchema),
  EventQuery: jsonSchema(EventQueryBody),
};

export const schemaRef = ref;
