import type { Id } from '../ids';
import type { User } from './accounts';
import type { RuleElement } from './rules';

/** Export status values (spec "States and transitions"). */
export type ExportStatus = 'created' | 'processing' | 'complete' | 'error' | 'truncated';

/** Statuses an export never leaves. */
export const FINAL_EXPORT_STATUSES: readonly ExportStatus[] = ['complete', 'error', 'truncated'];

/** One call of `GET /exports/{id}/file`: when, and by whom (the spec leaves the entry's fields open). */
export interface ExportDownload {
  readonly at: string;
  readonly user: User;
}

/** An export as the API shows it (spec "Export"). */
export interface Export {
  readonly id: Id;
  readonly created_at: string;
  readonly status: ExportStatus;
  /** Start of the range, inclusive (ISO 8601 UTC). */
  readonly start: string;
  /** End of the range, exclusive (ISO 8601 UTC). */
  readonly end: string;
  readonly filter_rules: readonly RuleElement[];
  readonly email_to: readonly string[];
  /** The CSV's columns: dotted paths into the event and its vars. */
  readonly fields: readonly string[];
  readonly date_format: 'standard' | 'legacy';
  readonly user: User;
  readonly expires_at: string;
  /** Why the export ended truncated or in error. */
  readonly reason?: { readonly message: string };
  /** The error message when status is error. */
  readonly error?: string;
  /** Rows written so far: grows while processing, final once the export ends. */
  readonly exported_docs: number;
  /** Set once the file is written (complete or truncated). */
  readonly file_name?: string;
  readonly downloads: readonly ExportDownload[];
}

/** An export as stored: the API view plus the owning account and where its file lives. */
export interface StoredExport extends Export {
  readonly account_id: Id;
  /** The file store key of the CSV, set once it is written. */
  readonly file_key?: string;
}
