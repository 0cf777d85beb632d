import type { ExportStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { attempt } from '../errors';
import { downloadPush, exportById, exportPage, progressUpdate } from '../queries';
import { exportDocument, toExport } from '../records';

/**
 * Export requests by `_id`. Progress fields are `$set` in place and downloads
 * `$push`ed, so concurrent downloads all land; the request itself is never changed.
 */
export function exportStore(c: Pick<MongoCollections, 'exports'>): ExportStore {
  return {
    insert: (record) =>
      attempt('insert export', () => c.exports.insertOne(exportDocument(record))).map(() => undefined),
    get: (id) =>
      attempt('get export', async () => {
        const doc = await c.exports.findOne(exportById(id));
        return doc ? toExport(doc) : undefined;
      }),
    list: (q) =>
      attempt('list exports', async () => {
        const { filter, sort, limit } = exportPage(q);
        if (limit === 0) return [];
        return (await c.exports.find(filter).sort(sort).limit(limit).toArray()).map(toExport);
      }),
    update: (id, patch) =>
      attempt('update export', async () => {
        const update = progressUpdate(patch);
        const doc = update
          ? await c.exports.findOneAndUpdate(exportById(id), update, { returnDocument: 'after' })
          : await c.exports.findOne(exportById(id));
        return doc ? toExport(doc) : undefined;
      }),
    addDownload: (id, entry) =>
      attempt('add export download', () => c.exports.updateOne(exportById(id), downloadPush(entry))).map(
        ({ matchedCount }) => matchedCount > 0,
      ),
  };
}
