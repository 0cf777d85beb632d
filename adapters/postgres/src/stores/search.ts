import {
  documentTokens,
  phraseLines,
  SEARCH_MAX_REACHABLE,
  SEARCH_SORT_FIELDS,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchPhrase,
  type StoreError,
  searchSortKey,
} from '@leadroute/core';
import { createHash } from 'node:crypto';
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

/**
 * The account's tag in its lexemes: eight hex digits of its MD5, as migration 20 computes it in SQL. Lexemes named by
 * the account's ID made every row's tsvector long enough to be compressed, and checking a row then decompressed it.
 * Accounts that share a tag share GIN entries, no more: every statement reads `account_id = $1` too.
 */
const accountTag = (accountId: string): string => createHash('md5').update(accountId).digest('hex').slice(0, 8);

/**
 * A lexeme of the account's vocabulary, `<tag>.<term>`: one GIN index, no other account's terms in reach but those of
 * an account with the same tag.
 */
const lexeme = (tag: string, term: string): string => `${tag}.${term.slice(0, MAX_TERM)}`;

/**
 * Prefixes of up to this many characters (code points) are lexemes of their own,
 * `<tag>:<prefix>`, apart from every `<tag>.<term>` and its ranges: a query's short
 * prefix is then one exact lexeme instead of a GIN range over every lexeme it begins
 * (a one-letter prefix expands to thousands: names, phones, postal codes, e-mails).
 */
const SHORT_PREFIX = 2;

const prefixLexeme = (tag: string, prefix: string): string => `${tag}:${prefix}`;

/** The short-prefix lexemes of terms: each term's first 1 to {@link SHORT_PREFIX} code points. */
function prefixLexemes(tag: string, terms: readonly string[]): string[] {
  const out = new Set<string>();
  for (const term of terms) {
    const chars = [...term.slice(0, SHORT_PREFIX * 2)];
    for (let n = 1; n <= Math.min(SHORT_PREFIX, chars.length); n++)
      out.add(prefixLexeme(tag, chars.slice(0, n).join('')));
  }
  return [...out];
}

/** A lexeme quoted for tsquery text (quotes doubled, backslashes escaped). */
const quoted = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * jsonb holds neither NULs nor lone surrogates; sort keys drop the first and mend the second (as `toWellFormed` would).
 */
const sortable = (text: string): string =>
  text
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replaceAll('\u0000', '');

function sortKeys(doc: SearchDocument): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const field of SEARCH_SORT_FIELDS) keys[field] = sortable(searchSortKey(doc, field));
  return keys;
}

/**
 * Relevance pages of queries with up to this many terms are read score by score (see
 * `searchStatement`) when more leads match than the count scores; longer queries in two
 * statements, the leads where some term is a whole word (scored) and then the others (a
 * score's tsquery grows with the subsets of the terms). Three terms go the second way: their
 * scores 2 and 1 were two GIN lookups, each gathering the same ranges (or, with short
 * prefixes standing in, intersecting the same long posting lists), for the few hundred rows
 * one statement scores (`N Mar L` 12.5 to 9.5 ms, `P Wil C` 9.2 to 6.9 at 100k leads).
 */
const LEVELLED_TERMS = 2;

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
   * How many match, up to `SEARCH_MAX_REACHABLE` (`total`, on every row). When `scored` (a relevance search without a
   * phrase) and fewer than that match (it then holds every one), the same statement scores them and returns the page
   * too (`document` on each row, best first; none when the page is empty): the `pages` are read only when more match.
   * Else the pages are read beside it.
   */
  readonly count: Statement;
  readonly scored: boolean;
  /**
   * The page: read one after another until `skip + take` rows are in hand (or none is left), then the `skip` first
   * are dropped. One statement that pages itself (`skip` 0), or relevance pages best first (per score, or the leads
   * where some term is whole and then the rest).
   */
  readonly pages: readonly Statement[];
  readonly skip: number;
  readonly take: number;
}

/**
 * The statements of one search: how many match (up to the reachable), and one page of matches.
 *
 * A relevance page (terms, no sort) is ordered by how many terms match a whole term of
 * the lead, then newest first. The count reads matches up to the `SEARCH_MAX_REACHABLE`
 * that can be paged to, off the GIN index; when fewer match, it has them all, and it
 * scores them and returns the page as well (one statement: a query of rare terms no
 * longer has the GIN index find its matches once per score). When more match, scoring
 * every match would read every matching row (100,000 for a one-letter prefix at 100k
 * leads) to keep ten; instead each score has a statement of its own (see
 * LEVELLED_TERMS), a tsquery that holds exactly when a lead has that score (in general,
 * for `jo smi`: `'jo' & 'smi'`, then `'jo' & 'smi':* & !'smi' | 'jo':* & !'jo' & 'smi'`,
 * then `'jo':* & !'jo' & 'smi':* & !'smi'`), newest first and `from + limit` at most.
 * The planner reads a rare score off the GIN index and a common one off (account_id,
 * seq) from the newest, stopping after a page; and a lower score is asked only when the
 * better ones did not fill the page. That matters: the planner takes a prefix and its
 * whole word as independent, so `'mary':* & !'mary'` (no lead: every mary is whole) looks
 * as common as `mary` and would be read off every lead of the account. A score that holds
 * some term whole has the GIN index find a superset, its ranges read as short prefixes, and
 * its rows checked against the exact tsquery. Queries of more
 * terms read the leads where some term is whole (scored), then the others newest first.
 */
export function searchStatement(table: string, q: SearchIndexQuery): SearchStatements {
  const tag = accountTag(q.account_id);
  /** Each term's code points: what prefixes are counted and compared in. */
  const points = q.terms.map((t) => [...t]);
  // A short prefix is its own lexeme, exact; a longer one a range of the account's lexemes.
  const prefixes = points.map((p) => {
    const t = p.join('');
    return p.length <= SHORT_PREFIX ? quoted(prefixLexeme(tag, t)) : `${quoted(lexeme(tag, t))}:*`;
  });
  // A term whose prefix another term's begins with (in code points: `mar` of `mary`, `j` of `jo`) needs no condition of
  // its own: the lead's word that begins with the longer term begins with it too (and a short prefix is its lexeme, of
  // every word's first code points). Of equal terms, the first stands for the rest. Dropped, it spares the GIN index a
  // range or a long posting list, and the planner the estimate of two conditions as independent that are not (`mary &
  // mar:* & !mar` looked rare and was read off the GIN index; every one of the 2,500 marys holds it).
  const implied = points.map((mine, j) =>
    points.some(
      (other, i) =>
        i !== j &&
        (other.length > mine.length || (other.length === mine.length && i < j)) &&
        mine.every((c, k) => other[k] === c),
    ),
  );
  /** Of a list with one entry per term, the entries of the terms not implied. */
  const kept = (perTerm: readonly string[]): string[] => perTerm.filter((_, i) => !implied[i]);
  const required = kept(prefixes);
  // In a score's tsquery that holds some term whole, a longer prefix's range stands in as its short prefix (every word
  // that begins with `mart` begins with `ma`), and the rows are checked against the exact tsquery (`ts_match_vq`, which
  // no index answers): the GIN index then reads no range, whose every posting it would gather before it could skip a
  // single one, and the whole terms bound the rows it finds (`S Mar`, `Jos G`: 3.4-4.2 to 1.4-2.1 ms at 100k leads).
  const loose = points.map((p) => quoted(prefixLexeme(tag, p.slice(0, SHORT_PREFIX).join(''))));
  const tokens = q.phrases.flatMap((p: SearchPhrase) => p.tokens.map((t) => quoted(lexeme(tag, t))));
  /**
   * A statement's parameters (`$1` the account) and its WHERE; `terms`, the tsquery of the terms (else their prefixes;
   * empty, none but the phrases' tokens).
   */
  const statement = () => {
    const values: unknown[] = [q.account_id];
    const param = (value: unknown): string => (values.push(value), `$${values.length}`);
    const where = (terms?: string, exact?: string): string => {
      const conditions = ['account_id = $1'];
      const match = [...(terms === undefined ? required : terms ? [`(${terms})`] : []), ...tokens];
      if (match.length > 0) conditions.push(`terms @@ ${param(match.join(' & '))}::tsquery`);
      if (exact !== undefined && exact !== terms) conditions.push(`ts_match_vq(terms, ${param(exact)}::tsquery)`);
      for (const p of q.phrases) conditions.push(`strpos(phrase_text, ${param(` ${p.text} `)}) > 0`);
      return conditions.join(' AND ');
    };
    return { values, param, where };
  };
  const from = Math.max(0, Math.floor(q.from));
  const limit = Math.max(0, Math.floor(q.limit));
  // Only the first SEARCH_MAX_REACHABLE matches can be paged to, and no more are counted: the count stops there
  // instead of reading every match (a one-letter prefix matches most of an account).
  const counted = (): Statement => {
    const { values, where } = statement();
    const text = `SELECT count(*)::float8 AS total FROM (SELECT FROM ${table} WHERE ${where()}
      LIMIT ${SEARCH_MAX_REACHABLE}) AS reachable`;
    return { text, values };
  };
  const page = (order: (param: (value: unknown) => string) => string): SearchStatements => {
    const { values, param, where } = statement();
    const text = `SELECT document FROM ${table} WHERE ${where()}
      ORDER BY ${order(param)} OFFSET ${param(from)} LIMIT ${param(limit)}`;
    return { count: counted(), scored: false, pages: [{ text, values }], skip: 0, take: limit };
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
  const whole = q.terms.map((t) => quoted(lexeme(tag, t)));
  /** A row's score: how many terms match a whole term of `terms` (a tsvector column). */
  const score = (param: (value: unknown) => string, terms: string) =>
    whole.map((w) => `(${terms} @@ ${param(w)}::tsquery)::int`).join(' + ');
  // The count, and when it read every match, the page of their scores (each row found again by ctid: a common query's
  // 1,000 rows are counted, not scored, for its pages score their own; 0.5-1.5 ms off its count at 100k leads, 0.1-0.2
  // ms more on a rare one's); the documents of the page only are read. Not with a phrase: its tokens are exact lexemes,
  // which keep every page statement's GIN lookup as narrow as the rarest of them, so the pages are read beside a plain
  // count instead of after it (phrase p99 over the bench's queries 11 to 8 ms; for terms alone, whose score statements
  // intersect the terms' whole postings, reading them beside the count made multi-term p99 15 to 21).
  const scored = q.phrases.length === 0;
  const scoredCount = (): Statement => {
    const { values, param, where } = statement();
    const text = `WITH reachable AS MATERIALIZED (
        SELECT ctid, seq FROM ${table} WHERE ${where()} LIMIT ${SEARCH_MAX_REACHABLE})
      SELECT counted.total, found.document FROM (SELECT count(*)::float8 AS total FROM reachable) AS counted
        LEFT JOIN LATERAL (
          SELECT r.ctid, r.seq, ${score(param, 'd.terms')} AS score FROM reachable AS r JOIN ${table} AS d ON d.ctid = r.ctid
          WHERE counted.total < ${SEARCH_MAX_REACHABLE}
          ORDER BY score DESC, r.seq DESC OFFSET ${param(from)} LIMIT ${param(limit)}
        ) AS best ON true
        LEFT JOIN ${table} AS found ON found.ctid = best.ctid
      ORDER BY best.score DESC, best.seq DESC`;
    return { text, values };
  };
  const count = scored ? scoredCount() : counted();
  if (q.terms.length > LEVELLED_TERMS) {
    // Two statements (see LEVELLED_TERMS): the leads where some term is a whole word, scored, off the GIN index's
    // whole lexemes (and the short prefixes, a range's standing in for it), checked against the exact tsquery; then,
    // when those did not fill the page, the leads where none is, newest first. Only the first scores rows, and only
    // its own.
    const some = statement();
    const found = (prefix: readonly string[]) => [`(${whole.join(' | ')})`, ...kept(prefix)].join(' & ');
    const best = `SELECT document FROM ${table} WHERE ${some.where(found(loose), found(prefixes))}
      ORDER BY ${score(some.param, 'terms')} DESC, seq DESC
      LIMIT ${some.param(from + limit)}`;
    const none = statement();
    const rest = `SELECT document FROM ${table} WHERE ${none.where([...required, ...whole.map((w) => `!${w}`)].join(' & '))}
      ORDER BY seq DESC LIMIT ${none.param(from + limit)}`;
    return {
      count,
      scored,
      pages: [
        { text: best, values: some.values },
        { text: rest, values: none.values },
      ],
      skip: from,
      take: limit,
    };
  }
  // A term whole holds its prefix too: the best score's tsquery holds whole lexemes only, and the GIN index finds them
  // without expanding any prefix.
  const pages = [...q.terms.map((_, i) => q.terms.length - i), 0].map((level) => {
    const exactly = (prefix: readonly string[]) =>
      subsets(whole.length, level)
        .map((set) =>
          set.map((on, i) => (on ? whole[i] : implied[i] ? `!${whole[i]}` : `${prefix[i]} & !${whole[i]}`)).join(' & '),
        )
        .join(' | ');
    const { values, param, where } = statement();
    const condition = level > 0 ? where(exactly(loose), exactly(prefixes)) : where(exactly(prefixes));
    return {
      text: `SELECT document FROM ${table} WHERE ${condition} ORDER BY seq DESC LIMIT ${param(from + limit)}`,
      values,
    };
  });
  return { count, scored, pages, skip: from, take: limit };
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
 * One search: a relevance search's count first, which answers alone when it scored every match (fewer than
 * `SEARCH_MAX_REACHABLE`), else its page's statements after it; any other search's page and count side by side on two
 * connections (a page of an account's newest leads stops after `limit` rows, which a count in the same statement, a
 * window over every match, would not let it do).
 */
export function readSearch(
  db: Queryable,
  statements: SearchStatements,
): ResultAsync<{ total: number; documents: SearchDocument[] }, StoreError> {
  const { count } = statements;
  const counting = query<{ total: number; document?: SearchDocument | string | null }>(
    db,
    'count search matches',
    count.text,
    count.values,
  );
  if (statements.scored)
    return counting.andThen(({ rows }) => {
      const total = rows[0]?.total ?? 0;
      if (total >= SEARCH_MAX_REACHABLE)
        return readPage(db, statements).map((documents) => ({ total, documents: documents.map(fromJsonb) }));
      const documents = rows.flatMap((row) => (row.document == null ? [] : [fromJsonb(row.document)]));
      return okAsync({ total, documents });
    });
  return ResultAsync.combine([readPage(db, statements), counting] as const).map(([documents, { rows }]) => ({
    total: rows[0]?.total ?? 0,
    documents: documents.map((document) => fromJsonb(document)),
  }));
}

/**
 * A document's row but its sort keys and document, which go as one jsonb array each (see {@link jsonbArray}): its
 * terms are one text, the lexemes apart by single spaces (a lexeme is a tag and letters or digits, never a space), split
 * by the server. As an array they were some 60 elements a lead that `pg` escaped one by one, half of what a lead's
 * writes escaped (#22).
 */
const TYPES = ['text', 'text', 'text', 'text', 'timestamptz'];

/**
 * Indexing documents: one upsert per round of distinct leads (an upsert cannot touch
 * a row twice in a statement), so a lead indexed twice in a batch ends as its last
 * document, as it would one call after the other. A round is one statement of one text,
 * whatever its size: each column one array parameter, and the sort keys and documents
 * one jsonb array each.
 */
export const indexDocuments = (table: string): WriteKind<SearchDocument, undefined> => ({
  what: 'index lead for search',
  plan: (docs) => ({
    statements: distinctRounds(docs, (doc) => JSON.stringify([asStored(doc.account_id), asStored(doc.lead_id)])).map(
      (round) => {
        const rows = columnsOf(round, TYPES.length, ({ input: doc }) => {
          const tag = accountTag(doc.account_id);
          // The fields are read once for both the terms and the phrase text.
          const { terms: own, words } = documentTokens(doc);
          const lexemes = new Set(own.map((t) => lexeme(tag, t)));
          for (const prefix of prefixLexemes(tag, own)) lexemes.add(prefix);
          return [doc.account_id, doc.lead_id, [...lexemes].join(' '), phraseLines(words), doc.expires_at];
        });
        const p = TYPES.length;
        return {
          text: `INSERT INTO ${table} AS d (account_id, lead_id, terms, phrase_text, sort_keys, document, expires_at)
         SELECT account_id, lead_id, array_to_tsvector(string_to_array(terms, ' ')), phrase_text,
           $${p + 1}::jsonb -> (n - 1)::int, $${p + 2}::jsonb -> (n - 1)::int, expires_at
         FROM ${unnestOf(TYPES)} WITH ORDINALITY AS v (account_id, lead_id, terms, phrase_text, expires_at, n)
         ON CONFLICT (account_id, lead_id) DO UPDATE SET
           seq = EXCLUDED.seq, terms = EXCLUDED.terms, phrase_text = EXCLUDED.phrase_text, sort_keys = EXCLUDED.sort_keys,
           document = EXCLUDED.document, expires_at = EXCLUDED.expires_at`,
          prepared: true,
          values: [
            ...rows,
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
    // See readSearch: the count first, or beside the page.
    search: (q) => readSearch(reads, searchStatement(table, q)),
    purgeExpired: (before) =>
      query(db, 'purge expired search documents', `DELETE FROM ${table} WHERE expires_at < $1`, [before]).map(
        ({ rowCount }) => rowCount,
      ),
  };
}
