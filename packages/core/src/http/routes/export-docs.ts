import { ExportDownloadQueryParams, ExportListQueryParams } from '../../schemas/exports';
import { schemaRef } from '../schemas';
import type { RouteDoc } from '../types';

/** OpenAPI descriptions of the export routes: the shapes are the schemas of `schemas/exports.ts`. */
export const EXPORT_DOCS = {
  list: { query: ExportListQueryParams, response: { type: 'array', items: schemaRef('Export') } },
  create: {
    body: schemaRef('ExportCreateBody'),
    response: schemaRef('Export'),
    errors: { 422: 'The export is not valid.', 503: 'No file store is configured, or storage is down.' },
  },
  get: {
    response: schemaRef('Export'),
    errors: { 400: 'The ID is not valid.', 404: 'No export with that ID in the calling account; empty body.' },
  },
  file: {
    response: schemaRef('ExportFileLink'),
    errors: {
      404: 'No such export, or its file is not ready (still running, in error, or expired).',
      422: 'The ID is not valid.',
    },
  },
  download: {
    query: ExportDownloadQueryParams,
    response: {
      type: 'string',
      description: 'The CSV.',
      examples: ['id,outcome,lead.email\n5fd4e3b7c1a2b3c4d5e6f707,success,nora@example.com\n'],
    },
    errors: { 403: 'The link is malformed, tampered with or expired.', 404: 'No such export or file.' },
  },
} satisfies Record<string, RouteDoc>;
