export { compileColumns, type DateStyle, eventPath, formatInstant, type RowMapper, rulesOnEvents } from './columns';
export { type SignedLink, signLink, verifyLink } from './links';
export { loggingNotifier } from './notify';
export {
  EXPORT_MAX_FIELDS,
  EXPORT_MAX_RECIPIENTS,
  EXPORTS_DEFAULT_LIMIT,
  EXPORTS_MAX_LIMIT,
  type ExportListParams,
  type ExportRequest,
  parseExportInstant,
  parseExportList,
  parseExportRequest,
} from './request';
export { type ExportRunDeps, exportFileName, type JobRunOutcome, runExportJob } from './run';
export { type ExportDownloadFile, type ExportFileLink, type ExportsApi, toExport } from './service';
export { EXPORT_DEFAULTS, EXPORT_JOB, type ExportOptions, type ExportSettings, LINK_TTL_SECONDS } from './settings';
export {
  type Export,
  type ExportDownload,
  type ExportStatus,
  FINAL_EXPORT_STATUSES,
  type StoredExport,
} from '../domain/exports';
export type { ExportWorker } from './worker';
