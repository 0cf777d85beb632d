import {
  fieldTerms,
  normalizeText,
  phraseText as fieldPhraseText,
  SEARCH_FIELDS,
  SEARCH_MAX_REACHABLE,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchPhrase,
  type StoreError,
} from '@leadroute/core';
import { okAsync, ResultAsync } from 'neverthrow';
import {
  columnsOf,
  directWriter,
  distinctRounds,
  jsonbArray,
  unnestOf,
  type WriteKind,
  type Writer,
} from '../batch/writer';
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
 * `searchStatement`); longer queries in two statements, the leads where some term is a
 * whole word (scored) and then the others. Each score's statement has the GIN index
 * expand the short prefixes again (`'d':*` unions the postings of every lexeme beginning
 * with d): for two or more terms that cost more than it saved (multi-term pages at 100k
 * leads, p50 9.9 ms scored at once, 16 ms score by score), for one it saves a scan of
 * every match (prefix pages p99 283 ms to 12 ms).
 */
const LEVELLED_TERMS = 1;

/**
 * A prefix shorter than this is left out of the GIN index's part of a multi-term query's
 * whole-word statement and checked on each row it finds instead: one letter expands to
 * thousands of lexemes (phones, postal codes, e-mails), 30 ms before the first row.
 */
const EXPANDED_PREFIX = 2;

/** The subsets of `0..n-1` with `size` members, each as a membership list. */
function subsets(n: number, size: number): boolean[][] {
  if (size === 0) return [Array.from({ length: n }, () => false)];
  if (n === size) return [Array.from({ length: n }, () => true)];
  return [
    ...subsets(n - 1, size - 1).map((rest) => [...rest, true]),
    ...subsets(n - 1, size).map((rest) => [...rest, false]),
  ];
}

/** One statement: its text and parameters. */
export interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

/** The statements of one search. */
export interface SearchStatements {
  /**
   * The page: read one after another until `skip + take` rows are in hand (or none is left), then the `skip` first
   * are dropped. One statement that pages itself (`skip` 0), or relevance pages best first (per score, or the leads
   * where some term is whole and then the rest).
   */
  readonly pages: readonly Statement[];
  readonly skip: number;
  readonly take: number;
  /** How many match, up to `SEARCH_MAX_REACHABLE`. */
  readonly count: Statement;
}

/**
 * The statements of one search: one page of matches, and how many match (up to the reachable).
 *
 * A relevance page (terms, no sort) is ordered by how many terms match a whole term of
 * the lead, then newest first. Scoring every match read every matching row (100,000
 * rows for a one-letter prefix at 100k leads) to keep ten; instead, a query of several
 * terms scores only the leads where some term is whole and reads the others newest
 * first, and for a query of one term (see LEVELLED_TERMS), each score has a statement of its own, a tsquery that holds
 * exactly when a lead has that score (in general, for `jo smi`: `'jo' & 'smi'`, then
 * `'jo' & 'smi':* & !'smi' | 'jo':* & !'jo' & 'smi'`, then `'jo':* & !'jo' & 'smi':*
 * & !'smi'`), newest first and `from + limit` at most. The planner reads a rare score
 * off the GIN index and a common one off (account_id, seq) from the newest, stopping
 * after a page; and a lower score is asked only when the better ones did not fill the
 * page. That matters: the planner takes a prefix and its whole word as independent, so
 * `'mary':* & !'mary'` (no lead: every mary is whole) looks as common as `mary` and
 * would be read off every lead of the account. The count
 * reads matches up to the `SEARCH_MAX_REACHABLE` that can be paged to.
 */
export function searchStatement(table: string, q: SearchIndexQuery): SearchStatements {
  const prefixes = q.terms.map((t) => `${quoted(lexeme(q.account_id, t))}:*`);
  const tokens = q.phrases.flatMap((p: SearchPhrase) => p.tokens.map((t) => quoted(lexeme(q.account_id, t))));
  /**
   * A statement's parameters (`$1` the account) and its WHERE; `terms`, the tsquery of the terms (else their prefixes;
   * empty, none but the phrases' tokens).
   */
  const statement = () => {
    const values: unknown[] = [q.account_id];
    const param = (value: unknown): string => (values.push(value), `$${values.length}`);
    /** `checked`: a tsquery each row found must hold too, which the GIN index does not read. */
    const where = (terms?: string, checked?: string): string => {
      const conditions = ['account_id = $1'];
      const match = [...(terms === undefined ? prefixes : terms ? [`(${terms})`] : []), ...tokens];
      if (match.length > 0) conditions.push(`terms @@ ${param(match.join(' & '))}::tsquery`);
      if (checked) conditions.push(`ts_match_vq(terms, ${param(checked)}::tsquery)`);
      for (const p of q.phrases) conditions.push(`strpos(phrase_text, ${param(` ${p.text} `)}) > 0`);
      return conditions.join(' AND ');
    };
    return { values, param, where };
  };
  // The prefixes the GIN index expands, and the one-letter ones (see EXPANDED_PREFIX) as a tsquery to check on rows.
  const isShort = (i: number) => (q.terms[i] as string).length < EXPANDED_PREFIX;
  const expanded = prefixes.filter((_, i) => !isShort(i));
  const checked = prefixes.filter((_, i) => isShort(i)).join(' & ');
  const counting = statement();
  // A one-letter prefix beside other terms or phrase tokens is checked on the rows they find, as in a multi-term page.
  const countWhere = () =>
    expanded.length + tokens.length > 0 && checked ? counting.where(expanded.join(' & '), checked) : counting.where();
  // Only the first SEARCH_MAX_REACHABLE matches can be paged to, and no more are counted: the count stops there
  // instead of reading every match (a one-letter prefix matches most of an account). No order: ordered newest first,
  // the planner walked (account_id, seq) for terms its statistics take as common and a short prefix's are not (count
  // p99 over the bench's prefixes 218 ms, against 29 ms unordered).
  const count = {
    text: `SELECT count(*)::float8 AS total FROM (SELECT FROM ${table} WHERE ${countWhere()}
      LIMIT ${SEARCH_MAX_REACHABLE}) AS reachable`,
    values: counting.values,
  };

  const from = Math.max(0, Math.floor(q.from));
  const limit = Math.max(0, Math.floor(q.limit));
  const page = (order: (param: (value: unknown) => string) => string): SearchStatements => {
    const { values, param, where } = statement();
    const text = `SELECT document FROM ${table} WHERE ${where()}
      ORDER BY ${order(param)} OFFSET ${param(from)} LIMIT ${param(limit)}`;
    return { pages: [{ text, values }], skip: 0, take: limit, count };
  };
  if (q.sort) {
    const { field, dir } = q.sort;
    // Leads without the field come last in either direction; ties in the order indexed, and desc is the exact reverse
    // of asc.
    return page((param) => {
      const key = `(sort_keys->>${param(field)})`;
      const way = dir === 'desc' ? 'DESC' : 'ASC';
      return `${key} = '', ${key} COLLATE "C" ${way}, seq ${way}`;
    });
  }
  // Every lead of the account (or every lead holding the phrases), newest first: read off (account_id, seq), no sort.
  if (q.terms.length === 0) return page(() => 'seq DESC');
  const whole = q.terms.map((t) => quoted(lexeme(q.account_id, t)));
  if (q.terms.length > LEVELLED_TERMS) {
    // Two statements (see LEVELLED_TERMS): the leads where some term is a whole word, scored, off the GIN index's
    // whole lexemes (and its longer prefixes; a one-letter prefix is checked on the rows found); then, when those did
    // not fill the page, the leads where none is, newest first. Only the first scores rows, and only its own.
    const some = statement();
    const found = [`(${whole.join(' | ')})`, ...expanded].join(' & ');
    const scored = `SELECT document FROM ${table} WHERE ${some.where(found, checked || undefined)}
      ORDER BY ${whole.map((w) => `(terms @@ ${some.param(w)}::tsquery)::int`).join(' + ')} DESC, seq DESC
      LIMIT ${some.param(from + limit)}`;
    const none = statement();
    const rest = `SELECT document FROM ${table} WHERE ${none.where([...prefixes, ...whole.map((w) => `!${w}`)].join(' & '))}
      ORDER BY seq DESC LIMIT ${none.param(from + limit)}`;
    return {
      pages: [
        { text: scored, values: some.values },
        { text: rest, values: none.values },
      ],
      skip: from,
      take: limit,
      count,
    };
  }
  // A term whole holds its prefix too: the best score's tsquery holds whole lexemes only, and the GIN index finds them
  // without expanding any prefix.
  const pages = [...q.terms.map((_, i) => q.terms.length - i), 0].map((score) => {
    const exactly = subsets(whole.length, score)
      .map((set) => set.map((on, i) => (on ? whole[i] : `${prefixes[i]} & !${whole[i]}`)).join(' & '))
      .join(' | ');
    const { values, param, where } = statement();
    return {
      text: `SELECT document FROM ${table} WHERE ${where(exactly)} ORDER BY seq DESC LIMIT ${param(from + limit)}`,
      values,
    };
  });
  return { pages, skip: from, take: limit, count };
}

/**
 * Reads the page of `statements`: its statements one after another, each only while the
 * rows in hand are fewer than `skip + take`.
 */
export function readPage(
  db: Queryable,
  statements: SearchStatements,
): ResultAsync<(SearchDocument | string)[], StoreError> {
  const wanted = statements.skip + statements.take;
  const next = (i: number, rows: (SearchDocument | string)[]): ResultAsync<(SearchDocument | string)[], StoreError> => {
    const page = statements.pages[i];
    if (!page || rows.length >= wanted) return okAsync(rows.slice(statements.skip, wanted));
    return query<{ document: SearchDocument | string }>(db, 'search leads', page.text, page.values).andThen((result) =>
      next(i + 1, rows.concat(result.rows.map((row) => row.document))),
    );
  };
  return next(0, []);
}

/**
 * A document's row but its sort keys and document, which go as one jsonb array each (see {@link jsonbArray}): its
 * terms are a slice of the statement's one array of every term.
 */
const TYPES = ['text', 'text', 'int', 'int', 'text', 'timestamptz'];

/**
 * Indexing documents: one upsert per round of distinct leads (an upsert cannot touch
 * a row twice in a statement), so a lead indexed twice in a batch ends as its last
 * document, as it would one call after the other. A round is one statement of one text,
 * whatever its size: each column one array parameter, every document's terms in one
 * more array, of which each row names its slice (`term_from` to `term_to`), and the sort
 * keys and documents one jsonb array each.
 */
export const indexDocuments = (table: string): WriteKind<SearchDocument, undefined> => ({
  what: 'index lead for search',
  plan: (docs) => ({
    statements: distinctRounds(docs, (doc) => JSON.stringify([asStored(doc.account_id), asStored(doc.lead_id)])).map(
      (round) => {
        const terms: string[] = [];
        const rows = columnsOf(round, TYPES.length, ({ input: doc }) => {
          const first = terms.length + 1;
          for (const term of new Set(documentTerms(doc).map((t) => lexeme(doc.account_id, t)))) terms.push(term);
          return [doc.account_id, doc.lead_id, first, terms.length, phraseText(doc), doc.expires_at];
        });
        const p = TYPES.length;
        return {
          text: `INSERT INTO ${table} AS d (account_id, lead_id, terms, phrase_text, sort_keys, document, expires_at)
         SELECT account_id, lead_id, array_to_tsvector(($${p + 1}::text[])[term_from:term_to]), phrase_text,
           $${p + 2}::jsonb -> (n - 1)::int, $${p + 3}::jsonb -> (n - 1)::int, expires_at
         FROM ${unnestOf(TYPES)} WITH ORDINALITY AS v (account_id, lead_id, term_from, term_to, phrase_text, expires_at, n)
         ON CONFLICT (account_id, lead_id) DO UPDATE SET
           seq = EXCLUDED.seq, terms = EXCLUDED.terms, phrase_text = EXCLUDED.phrase_text, sort_keys = EXCLUDED.sort_keys,
           document = EXCLUDED.document, expires_at = EXCLUDED.expires_at`,
          prepared: true,
          values: [
            ...rows,
            terms,
            jsonbArray(round.map(({ input: doc }) => JSON.stringify(sortKeys(doc)))),
            jsonbArray(round.map(({ input: doc }) => toJsonb(doc))),
          ],
        };
      },
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
      const statements = searchStatement(table, q);
      return ResultAsync.combine([
        readPage(reads, statements),
        query<{ total: number }>(reads, 'count search matches', statements.count.text, statements.count.values),
      ] as const).map(([documents, count]) => ({
        total: count.rows[0]?.total ?? 0,
        documents: documents.map((document) => fromJsonb(document)),
      }));
    },
    purgeExpired: (before) =>
      query(db, 'purge expired search documents', `DELETE FROM ${table} WHERE expires_at < $1`, [before]).map(
        ({ rowCount }) => rowCount,
      ),
  };
}
