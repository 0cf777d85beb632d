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

/**
 * Relevance pages of queries with up to this many terms are read score by score (see
 * `searchStatement`): one tsquery per score, each an OR of the 2^terms ways to reach it.
 */
const LEVELLED_TERMS = 4;

/** The subsets of `0..n-1` with `size` members, each as a membership list. */
function subsets(n: number, size: number): boolean[][] {
  if (size === 0) return [Array.from({ length: n }, () => false)];
  if (n === size) return [Array.from({ length: n }, () => true)];
  return [
    ...subsets(n - 1, size - 1).map((rest) => [...rest, true]),
    ...subsets(n - 1, size).map((rest) => [...rest, false]),
  ];
}

/**
 * The statements of one search: one page of matches, and how many match in all.
 *
 * A relevance page (terms, no sort) is ordered by how many terms match a whole term of
 * the lead, then newest first. Scoring every match read every matching row (100,000
 * rows for a one-letter prefix at 100k leads) to keep ten; instead each score has a
 * branch of its own, a tsquery that holds exactly when a lead has that score (for `jo
 * smi`: `'jo' & 'smi'`, then `'jo' & !'smi' | !'jo' & 'smi'`, then `!'jo' & !'smi'`,
 * each ANDed with the match), newest first and `from + limit` at most. The planner
 * reads a rare score off the GIN index and a common one off (account_id, seq) from the
 * newest, stopping after a page. The count reads every match: the total is exact.
 */
export function searchStatement(
  table: string,
  q: SearchIndexQuery,
): { text: string; values: unknown[]; counted: string; countValues: unknown[] } {
  const values: unknown[] = [q.account_id];
  const param = (value: unknown): string => (values.push(value), `$${values.length}`);
  const required = [
    ...q.terms.map((t) => `${quoted(lexeme(q.account_id, t))}:*`),
    ...q.phrases.flatMap((p: SearchPhrase) => p.tokens.map((t) => quoted(lexeme(q.account_id, t)))),
  ];
  /** The WHERE of a statement; `score`, a tsquery ANDed with the match. */
  const where = (score = ''): string => {
    const conditions = ['account_id = $1'];
    if (required.length > 0)
      conditions.push(`terms @@ ${param([...required, ...(score ? [`(${score})`] : [])].join(' & '))}::tsquery`);
    for (const p of q.phrases) conditions.push(`strpos(phrase_text, ${param(` ${p.text} `)}) > 0`);
    return conditions.join(' AND ');
  };
  const counted = `SELECT count(*)::float8 AS total FROM ${table} WHERE ${where()}`;
  const countValues = [...values];
  values.length = 1; // the page's parameters start again after the account

  const from = Math.max(0, Math.floor(q.from));
  const limit = Math.max(0, Math.floor(q.limit));
  const page = (order: string): string =>
    `SELECT document FROM ${table} WHERE ${where()} ORDER BY ${order} OFFSET ${param(from)} LIMIT ${param(limit)}`;
  let text: string;
  if (q.sort) {
    const key = `(sort_keys->>${param(q.sort.field)})`;
    // Leads without the field come last in either direction; ties in the order indexed, and desc is the exact reverse
    // of asc.
    const dir = q.sort.dir === 'desc' ? 'DESC' : 'ASC';
    text = page(`${key} = '', ${key} COLLATE "C" ${dir}, seq ${dir}`);
  } else if (q.terms.length > LEVELLED_TERMS) {
    // Relevance, scored on every match: too many terms for a branch per score.
    const score = q.terms.map((t) => `(terms @@ ${param(quoted(lexeme(q.account_id, t)))}::tsquery)::int`).join(' + ');
    text = page(`${score} DESC, seq DESC`);
  } else if (q.terms.length > 0) {
    const whole = q.terms.map((t) => quoted(lexeme(q.account_id, t)));
    const top = param(from + limit);
    const branches = q.terms
      .map((_, i) => q.terms.length - i)
      .concat(0)
      .map((score) => {
        const exactly = subsets(whole.length, score)
          .map((set) => set.map((on, i) => (on ? whole[i] : `!${whole[i]}`)).join(' & '))
          .join(' | ');
        return `(SELECT ${score} AS score, seq, document FROM ${table} WHERE ${where(exactly)}
          ORDER BY seq DESC LIMIT ${top})`;
      });
    text = `SELECT document FROM (${branches.join(' UNION ALL ')}) AS scored
      ORDER BY score DESC, seq DESC OFFSET ${param(from)} LIMIT ${param(limit)}`;
  } else {
    // Every lead of the account (or every lead holding the phrases), newest first: read off (account_id, seq), no sort.
    text = page('seq DESC');
  }
  return { text, values, counted, countValues };
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
