import {
  fieldTerms,
  normalizeText,
  phraseText as fieldPhraseText,
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchPhrase,
} from '@leadroute/core';
import { ResultAsync } from 'neverthrow';
import { directWriter, distinctRounds, valuesList, type WriteKind, type Writer } from '../batch/writer';
import { type Queryable, query } from '../query';
import { asStored, fromJsonb, qualified, toJsonb } from '../sql';

/**
 * Terms longer than this are cut (documents and queries alike): a tsvector lexeme
 * holds at most 2047 bytes, and no one types a longer prefix.
 */
const MAX_TERM = 500;

/** A lexeme of the account's vocabulary: one GIN index, no other account's terms in reach. */
const lexeme = (accountId: string, term: string): string => `${accountId}.${term.slice(0, MAX_TERM)}`;

/** A lexeme quoted for tsquery text (quotes doubled, backslashes escaped). */
const quoted = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The terms a document is found by, as the memory index takes them: its lead ID and each field's terms. */
export function documentTerms(doc: SearchDocument): string[] {
  const terms = new Set<string>([doc.lead_id.toLowerCase()]);
  for (const field of SEARCH_FIELDS) for (const t of fieldTerms(field, doc.fields[field])) terms.add(t);
  return [...terms];
}

/**
 * Every field's phrase text (core's `phraseText`: ` w1 w2 `), fields apart by a line
 * break: a phrase (words joined by single spaces, never a line break) is held by a
 * field exactly when ` <phrase> ` occurs in this text, as `holdsPhrase` has it.
 */
export function phraseText(doc: SearchDocument): string {
  return SEARCH_FIELDS.map((field) => fieldPhraseText(field, doc.fields[field])).join('\n');
}

/**
 * jsonb holds neither NULs nor lone surrogates; sort keys drop the first and mend the second (as `toWellFormed` would).
 */
const sortable = (text: string): string =>
  text
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replaceAll('\u0000', '');

function sortKeys(doc: SearchDocument): Record<string, string> {
  const keys: Record<string, string> = {
    lead_id: sortable(doc.lead_id),
    submission_timestamp: sortable(doc.submission_timestamp),
  };
  for (const field of SEARCH_FIELDS) keys[field] = sortable(normalizeText(doc.fields[field]).trim());
  return keys;
}

/** The statements of one search: one page of matches, and how many match in all. */
export function searchStatement(
  table: string,
  q: SearchIndexQuery,
): { text: string; values: unknown[]; counted: string; countValues: unknown[] } {
  const values: unknown[] = [q.account_id];
  const param = (value: unknown): string => (values.push(value), `$${values.length}`);
  const where = ['account_id = $1'];
  const required = [
    ...q.terms.map((t) => `${quoted(lexeme(q.account_id, t))}:*`),
    ...q.phrases.flatMap((p: SearchPhrase) => p.tokens.map((t) => quoted(lexeme(q.account_id, t)))),
  ];
  if (required.length > 0) where.push(`terms @@ ${param(required.join(' & '))}::tsquery`);
  for (const p of q.phrases) where.push(`strpos(phrase_text, ${param(` ${p.text} `)}) > 0`);
  const whereText = where.join(' AND ');
  const countValues = [...values];

  let order: string;
  if (q.sort) {
    const key = `(sort_keys->>${param(q.sort.field)})`;
    // Leads without the field come last in either direction; ties in the order indexed, and desc is the exact reverse
    // of asc.
    const dir = q.sort.dir === 'desc' ? 'DESC' : 'ASC';
    order = `${key} = '', ${key} COLLATE "C" ${dir}, seq ${dir}`;
  } else if (q.terms.length > 0) {
    // Relevance: how many terms match a whole term of the lead (a prefix match scores less), then newest first.
    const score = q.terms.map((t) => `(terms @@ ${param(quoted(lexeme(q.account_id, t)))}::tsquery)::int`).join(' + ');
    order = `${score} DESC, seq DESC`;
  } else {
    // Every lead of the account, newest first: read off (account_id, seq), no sort.
    order = 'seq DESC';
  }
  const text = `SELECT document FROM ${table} WHERE ${whereText}
    ORDER BY ${order} OFFSET ${param(Math.max(0, Math.floor(q.from)))} LIMIT ${param(Math.max(0, Math.floor(q.limit)))}`;
  return { text, values, counted: `SELECT count(*)::float8 AS total FROM ${table} WHERE ${whereText}`, countValues };
}

const CASTS = ['text', 'text', 'text[]', 'text', 'jsonb', 'jsonb', 'timestamptz'];

/**
 * Indexing documents: one upsert per round of distinct leads (an upsert cannot touch
 * a row twice in a statement), so a lead indexed twice in a batch ends as its last
 * document, as it would one call after the other.
 */
export const indexDocuments = (table: string): WriteKind<SearchDocument, undefined> => ({
  what: 'index lead for search',
  plan: (docs) => ({
    statements: distinctRounds(docs, (doc) => JSON.stringify([asStored(doc.account_id), asStored(doc.lead_id)])).map(
      (round) => ({
        text: `INSERT INTO ${table} AS d (account_id, lead_id, terms, phrase_text, sort_keys, document, expires_at)
         SELECT account_id, lead_id, array_to_tsvector(terms), phrase_text, sort_keys, document, expires_at
         FROM (VALUES ${valuesList(round.length, CASTS)}) AS v (account_id, lead_id, terms, phrase_text, sort_keys, document, expires_at)
         ON CONFLICT (account_id, lead_id) DO UPDATE SET
           seq = EXCLUDED.seq, terms = EXCLUDED.terms, phrase_text = EXCLUDED.phrase_text, sort_keys = EXCLUDED.sort_keys,
           document = EXCLUDED.document, expires_at = EXCLUDED.expires_at`,
        values: round.flatMap(({ input: doc }) => [
          doc.account_id,
          doc.lead_id,
          [...new Set(documentTerms(doc).map((t) => lexeme(doc.account_id, t)))],
          phraseText(doc),
          JSON.stringify(sortKeys(doc)),
          toJsonb(doc),
          doc.expires_at,
        ]),
      }),
    ),
    answers: () => docs.map(() => undefined),
  }),
});

/**
 * The lead search index on a tsvector column. Core's tokenizer makes the terms (so
 * PostgreSQL's text parser and dictionaries play no part and the memory index
 * matches alike); a query is one tsquery of prefix lexemes (`'<account>.<term>':*`)
 * and whole phrase tokens, ANDed, on a GIN index, with phrases then checked at word
 * boundaries on `phrase_text`. Documents are indexed through `writer`, which may
 * send several callers' documents in one statement; searches read through `reads`
 * (a replica's pool when the host gave one: see `readPool` of postgresStorage).
 */
export function searchIndex(
  db: Queryable,
  schema: string,
  writer: Writer = directWriter(db),
  reads: Queryable = db,
): SearchIndex {
  const table = qualified(schema, 'search_documents');
  const index = indexDocuments(table);
  return {
    index: (doc) => writer.write(index, doc),
    // The page and the count run side by side on two connections: a page of an
    // account's newest leads stops after `limit` rows, which a count in the same
    // statement (a window over every match) would not let it do.
    search: (q) => {
      const statement = searchStatement(table, q);
      return ResultAsync.combine([
        query<{ document: SearchDocument | string }>(reads, 'search leads', statement.text, statement.values),
        query<{ total: number }>(reads, 'count search matches', statement.counted, statement.countValues),
      ] as const).map(([page, count]) => ({
        total: count.rows[0]?.total ?? 0,
        documents: page.rows.map((row) => fromJsonb(row.document)),
      }));
    },
    purgeExpired: (before) =>
      query(db, 'purge expired search documents', `DELETE FROM ${table} WHERE expires_at < $1`, [before]).map(
        ({ rowCount }) => rowCount,
      ),
  };
}
