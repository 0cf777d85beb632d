import { type Static, Type } from '@sinclair/typebox';
import type { Export } from '../domain/exports';
import type { RuleElement, RuleInput, RuleSetInput } from '../domain/rules';
import { rules } from './rules';
import { S } from './define';

/** Most columns an export may have. */
export const EXPORT_MAX_FIELDS = 500;
/** Most addresses `email_to` may hold. */
export const EXPORT_MAX_RECIPIENTS = 50;
/** `GET /exports` limit bounds (spec: 1..100) and the default page size (spec: not shown). */
export const EXPORTS_MAX_LIMIT = 100;
export const EXPORTS_DEFAULT_LIMIT = 25;

/** An ISO 8601 date or date-time, surrounding spaces allowed; whether the date exists is checked in the account's zone. */
const INSTANT =
  '^\\s*\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?)?([Zz]|[+-]\\d{2}(:?\\d{2})?)?\\s*$';
const instant = (description: string) =>
  Type.String({
    pattern: INSTANT,
    description,
    examples: ['2026-01-15T00:00:00Z', '2026-01-15'],
    'x-message': 'must be an ISO 8601 date-time such as 2026-01-15T00:00:00Z',
  });

/** POST /exports: only these properties are read; all others are set by the service. */
export const ExportCreateBody = Type.Object(
  {
    start: instant('Start of the range, inclusive. ISO 8601; without an offset, a wall time in the account time zone.'),
    end: instant('End of the range, exclusive; after start.'),
    fields: Type.Array(Type.String({ pattern: '^\\s*[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\s*$' }), {
      minItems: 1,
      maxItems: EXPORT_MAX_FIELDS,
      description:
        'CSV columns: dotted paths into the event (id, outcome, start_timestamp...) or its vars (lead.email, same as vars.lead.email); each once.',
      examples: [['id', 'outcome', 'lead.email']],
      'x-message': `must be a non-empty array of at most ${EXPORT_MAX_FIELDS} field paths`,
      'x-missing-message': `must be a non-empty array of at most ${EXPORT_MAX_FIELDS} field paths`,
      'x-item-message': 'Each field must be a dotted path such as vars.lead.email or outcome.',
    }),
    filter_rules: Type.Optional(
      Type.Union([rules<RuleInput | RuleSetInput>(), Type.Null()], {
        description: 'ANDed; evaluated against the event with its vars.',
      }),
    ),
    email_to: Type.Optional(
      Type.Union([Type.Array(Type.String({ format: 'email' }), { maxItems: EXPORT_MAX_RECIPIENTS }), Type.Null()], {
        description: 'Told by e-mail when the export ends; repeated addresses count once.',
        'x-message': `must be an array of at most ${EXPORT_MAX_RECIPIENTS} e-mail addresses`,
        'x-item-message': 'Each address must be an e-mail address.',
      }),
    ),
    standard_dates: Type.Optional(
      S.nullable(
        Type.Boolean({
          description: 'true: ISO 8601 UTC dates; otherwise legacy yyyy-MM-dd HH:mm:ss in the account time zone.',
        }),
        'must be true or false',
      ),
    ),
  },
  {
    title: 'ExportCreateBody',
    description: 'Only these properties are read; all others are set by the service.',
    examples: [{ start: '2026-03-01', end: '2026-03-02', fields: ['id', 'outcome', 'lead.email'] }],
  },
);
export type ExportCreateBody = Static<typeof ExportCreateBody>;

/** GET /exports. */
export const ExportListQueryParams = Type.Object(
  {
    before_id: Type.Optional(
      Object.assign(S.id(), {
        description: 'Only exports created before this one (exclusive); pass the last item of a page to get the next.',
      }),
    ),
    after_id: Type.Optional(Object.assign(S.id(), { description: 'Only exports created after this one (exclusive).' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: EXPORTS_MAX_LIMIT,
        default: EXPORTS_DEFAULT_LIMIT,
        description: `Page size, 1..${EXPORTS_MAX_LIMIT}.`,
        'x-message': `must be an integer from 1 to ${EXPORTS_MAX_LIMIT}`,
      }),
    ),
  },
  { title: 'ExportListQueryParams' },
);
export type ExportListQueryParams = Static<typeof ExportListQueryParams>;

/** GET /exports/{id}/download: the signed link's parameters, checked by the signature (403), not by shape. */
export const ExportDownloadQueryParams = Type.Object(
  {
    expires: Type.String({ description: 'From the file link.' }),
    signature: Type.String({ description: 'From the file link.' }),
  },
  { title: 'ExportDownloadQueryParams' },
);
export type ExportDownloadQueryParams = Static<typeof ExportDownloadQueryParams>;

const user = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  sso_id: Type.String(),
});

/** An export as the API shows it (spec "Export"). */
export const ExportSchema = Type.Object(
  {
    id: S.id(),
    created_at: S.dateTime(),
    status: Type.Union(
      (['created', 'processing', 'complete', 'error', 'truncated'] as const).map((s) => Type.Literal(s)),
    ),
    start: S.dateTime(),
    end: S.dateTime(),
    filter_rules: rules<RuleElement>(),
    email_to: Type.Array(Type.String()),
    fields: Type.Array(Type.String()),
    date_format: Type.Union([Type.Literal('standard'), Type.Literal('legacy')]),
    user,
    expires_at: S.dateTime(),
    reason: Type.Optional(Type.Object({ message: Type.String() })),
    error: Type.Optional(Type.String()),
    exported_docs: Type.Integer({ minimum: 0, description: 'Rows written so far; grows while processing.' }),
    file_name: Type.Optional(Type.String()),
    downloads: Type.Array(Type.Object({ at: S.dateTime(), user })),
  },
  {
    title: 'Export',
    examples: [
      {
        id: '5fd4e3b7c1a2b3c4d5e6f705',
        created_at: '2026-03-01T15:04:05.000Z',
        status: 'complete',
        start: '2026-03-01T06:00:00.000Z',
        end: '2026-03-02T06:00:00.000Z',
        filter_rules: [],
        email_to: ['ops@acme.example'],
        fields: ['id', 'outcome', 'lead.email'],
        date_format: 'standard',
        user: { id: '5fd4e3b7c1a2b3c4d5e6f706', first_name: 'API', last_name: 'User', email: '', sso_id: '' },
        expires_at: '2026-03-31T15:04:05.000Z',
        exported_docs: 1250,
        file_name: 'export-2026-03-01.csv',
        downloads: [],
      },
    ],
  },
);

/** GET /exports/{id}/file. */
export const ExportFileLinkSchema = Type.Object(
  {
    url: Type.String({
      description:
        'Download URL valid 10 seconds (relative to this endpoint unless exports.baseUrl is set, or an S3 pre-signed URL).',
    }),
    expires_at: S.dateTime(),
  },
  {
    title: 'ExportFileLink',
    examples: [{ url: 'download?expires=1772323210&signature=…', expires_at: '2026-03-01T00:00:10.000Z' }],
  },
);
export type ExportFileLink = Static<typeof ExportFileLinkSchema>;

/** The schema and the domain type name the same properties and statuses. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ExportView = Static<typeof ExportSchema>;
const exportFits: Same<keyof ExportView, keyof Export> & Same<ExportView['status'], Export['status']> = true;
void exportFits;
