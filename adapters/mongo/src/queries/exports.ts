import type { ExportDownload, ExportListQuery, ExportPatch } from '@leadroute/core';
import type { Filter } from 'mongodb';
import { toDate } from '../documents';
import { EXPORT_PROGRESS, type ExportDoc } from '../records';
import { type PageQuery, pageSize } from './types';

/** The export with this ID (the primary index). */
export const exportById = (id: string): Filter<ExportDoc> => ({ _id: id });

/** One page of the account's unexpired exports, newest (highest ID) first (`exports_account_id`). */
export function exportPage(q: ExportListQuery): PageQuery<ExportDoc> {
  const id = {
    ...(q.before_id === undefined ? {} : { $lt: q.before_id }),
    ...(q.after_id === undefined ? {} : { $gt: q.after_id }),
  };
  return {
    filter: {
      account_id: q.account_id,
      expires_at: { $gt: toDate(q.live_at) },
      ...(Object.keys(id).length > 0 ? { _id: id } : {}),
    },
    sort: { _id: -1 },
    limit: pageSize(q.limit),
  };
}

/**
 * Sets the progress fields the patch names; undefined when it names none (an empty `$set` is refused by older servers).
 */
export function progressUpdate(patch: ExportPatch): { $set: Record<string, unknown> } | undefined {
  const set: Record<string, unknown> = {};
  for (const field of EXPORT_PROGRESS) if (patch[field] !== undefined) set[field] = patch[field];
  return Object.keys(set).length > 0 ? { $set: set } : undefined;
}

/** Appends one download: `$push` lands every one of concurrent calls. */
export const downloadPush = (entry: ExportDownload) => ({
  $push: { downloads: { at: entry.at, user: { ...entry.user } } },
});
