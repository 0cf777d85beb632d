import { SEARCH_MAX_REACHABLE, type SearchIndexQuery } from '@leadroute/core';
import type { Filter } from 'mongodb';
import type { SearchDoc, SequenceDoc } from '../records-work';
import { escapeRegex } from './spool';
import type { Pipeline } from './types';

/** The index entry of one lead of one account. */
export const searchEntry = (accountId: string, leadId: string): Filter<SearchDoc> => ({
  _id: { account_id: accountId, lead_id: leadId },
});

/** The named sequence. */
export const sequenceById = (name: string): Filter<SequenceDoc> => ({ _id: name });

/** Takes the next number of a sequence (an upsert starts it at 1). */
export const sequenceIncrement = () => ({ $inc: { value: 1 } });

/**
 * The account's leads matching every term as the prefix of some term of theirs
 * (an anchored regex on the multikey `search_account_terms` index), every phrase
 * token as a whole term, and every phrase's text at word boundaries.
 */
export function searchFilter(q: SearchIndexQuery): Filter<SearchDoc> {
  const all: Filter<SearchDoc>[] = [
    ...q.terms.map((t) => ({ terms: { $regex: `^${escapeRegex(t)}` } })),
    ...q.phrases.flatMap((p) => p.tokens.map((t) => ({ terms: t }))),
    ...q.phrases.map((p) => ({ phrase_text: { $regex: escapeRegex(` ${p.text} `) } })),
  ];
  return { account_id: q.account_id, ...(all.length > 0 ? { $and: all } : {}) };
}

/**
 * One page of matches and their number, in one round trip. Without a sort field:
 * relevance (how many terms are whole terms of the lead), then newest indexed first.
 * With one: its key, leads without the field last in either direction, ties in the
 * order indexed (desc is the exact reverse of asc). The page holds at least one
 * document (`$limit` refuses 0); the store cuts it to the limit asked. Only the first
 * `SEARCH_MAX_REACHABLE` matches can be paged to, so no more are sorted or counted.
 */
export function searchPipeline(q: SearchIndexQuery): Pipeline {
  const stages: Pipeline = [{ $match: searchFilter(q) }];
  if (q.sort) {
    const key = `sort_keys.${q.sort.field}`;
    const dir = q.sort.dir === 'desc' ? -1 : 1;
    stages.push({ $addFields: { missing: { $eq: [`$${key}`, ''] } } }, { $sort: { missing: 1, [key]: dir, seq: dir } });
  } else if (q.terms.length > 0) {
    const score = q.terms.map((t) => ({ $cond: [{ $in: [t, '$terms'] }, 1, 0] }));
    stages.push({ $addFields: { score: { $add: score } } }, { $sort: { score: -1, seq: -1 } });
  } else {
    stages.push({ $sort: { seq: -1 } });
  }
  const from = Math.max(0, Math.floor(q.from));
  stages.push({ $limit: SEARCH_MAX_REACHABLE });
  stages.push({
    $facet: {
      total: [{ $count: 'n' }],
      page: [{ $skip: from }, { $limit: Math.max(1, Math.floor(q.limit)) }, { $project: { _id: 0, document: 1 } }],
    },
  });
  return stages;
}

/** Entries of leads that expired before `before`. */
export const searchExpiredBefore = (before: Date): Filter<SearchDoc> => ({ expires_at: { $lt: before } });
