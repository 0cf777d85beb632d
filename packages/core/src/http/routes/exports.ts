import { errAsync, okAsync } from 'neverthrow';
import { errors } from '../../errors';
import { parseExportList } from '../../exports/request';
import type { ExportCreateBody } from '../../schemas/exports';
import type { LeadService } from '../../service';
import { json } from '../reply';
import type { Reply, Route } from '../types';
import { EXPORT_DOCS } from './export-docs';

/** `filename` for Content-Disposition: the name is ours, but quote-safe ASCII only, to be sure. */
const dispositionName = (name: string): string => name.replace(/[^\w.-]/g, '_');

/** Exports: list, create, get, file link, and the signed download the file link points at. */
export function exportRoutes(service: LeadService): Route[] {
  const { exports } = service;
  return [
    {
      method: 'GET',
      path: '/exports',
      auth: 'key',
      leadData: true,
      summary: 'List exports, newest first',
      doc: EXPORT_DOCS.list,
      handle: (c) => {
        const params = parseExportList(c.query);
        return params.isErr()
          ? errAsync(errors.badRequest('The exports query is not valid.', params.error))
          : exports.list(c.principal, params.value).map(json(200));
      },
    },
    {
      method: 'POST',
      path: '/exports',
      auth: 'key',
      leadData: true,
      readsBody: true,
      summary: 'Request an export',
      doc: EXPORT_DOCS.create,
      // Cast only to be handed on: the exports service validates the body.
      handle: (c) => exports.create(c.principal, c.body as ExportCreateBody).map(json(201)),
    },
    {
      method: 'GET',
      path: '/exports/:id',
      auth: 'key',
      leadData: true,
      summary: 'Get one export',
      doc: EXPORT_DOCS.get,
      // The spec answers an export outside the account with 404 and an empty body.
      handle: (c) =>
        exports
          .get(c.principal, c.params.id ?? '')
          .map(json(200))
          .orElse((e) => (e.type === 'NotFound' ? okAsync<Reply>({ status: 404, empty: true }) : errAsync(e))),
    },
    {
      method: 'GET',
      path: '/exports/:id/file',
      auth: 'key',
      leadData: true,
      summary: 'Get a download link for the CSV',
      doc: EXPORT_DOCS.file,
      handle: (c) => exports.fileLink(c.principal, c.params.id ?? '').map(json(200)),
    },
    {
      method: 'GET',
      path: '/exports/:id/download',
      auth: 'none',
      summary: 'Download the CSV through a signed link',
      doc: EXPORT_DOCS.download,
      produces: ['text/csv'],
      handle: (c) =>
        exports.download(c.params.id ?? '', c.query.get('expires'), c.query.get('signature')).map(
          (file): Reply => ({
            status: 200,
            text: file.body,
            contentType: file.contentType,
            headers: {
              'content-disposition': `attachment; filename="${dispositionName(file.fileName)}"`,
              'cache-control': 'no-store',
            },
          }),
        ),
    },
  ];
}
