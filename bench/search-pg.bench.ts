// Lead search on PostgreSQL: 100,000 generated leads in one account among four others
// (20,000 more leads), the same queries as bench/search.bench.ts, against the memory
// index over the same leads in the same run (the baseline). Target (issue 22.7): p99 <= 10 ms.
// The "page alone" rows run only the page statement (no count): the exact total reads every
// match, and those rows show what is left of a search once it does not.
import { randomBytes } from 'node:crypto';
import { migrate } from '@leadroute/postgres';
import pg from 'pg';
import { memorySearchIndex } from '../adapters/memory/src/search-index';
import { indexDocuments, readPage, searchIndex, searchStatement } from '../adapters/postgres/src/stores/search';
import { parseSearchText } from '../packages/core/src/search/tokens';
import type { SearchDocument } from '../packages/core/src/ports/search';
import type { BenchRow } from './harness';
import { measure } from './harness';
import { lead, queries } from './search.bench';

const N = 100_000;
const OTHERS = 4;
const PER_OTHER = 5_000;

function row(name: string, value: number, extra: Partial<BenchRow>): BenchRow {
  return { name, unit: 'ms', value, measuredAt: new Date().toISOString(), ...extra };
}

export default async function searchPostgresBench(): Promise<BenchRow[]> {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test',
    max: 4,
  });
  pool.on('error', () => undefined);
  const schema = `leadroute_bench_${randomBytes(6).toString('hex')}`;
  await pool.query(`CREATE SCHEMA "${schema}"`);
  try {
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const docs = Array.from({ length: N }, (_, i) => lead(i));
    const ACCOUNT = docs[0]?.account_id as string;
    const others: SearchDocument[] = [];
    for (let a = 0; a < OTHERS; a++)
      for (let i = 0; i < PER_OTHER; i++)
        others.push({ ...lead(N + a * PER_OTHER + i), account_id: `${a}`.repeat(24) });
    const table = `"${schema}".search_documents`;
    const kind = indexDocuments(table);
    const t0 = performance.now();
    const all = [...others.slice(0, 10_000), ...docs, ...others.slice(10_000)];
    for (let i = 0; i < all.length; i += 500) {
      for (const s of kind.plan(all.slice(i, i + 500)).statements) await pool.query(s.text, [...s.values]);
    }
    await pool.query(`VACUUM ANALYZE ${table}`);
    console.log(
      `indexed ${all.length.toLocaleString('en-US')} leads in PostgreSQL in ${Math.round(performance.now() - t0)} ms`,
    );
    const size = await pool.query<{ bytes: string }>(
      `SELECT pg_total_relation_size('${table}'::regclass)::text AS bytes`,
    );
    const terms = await pool.query<{ bytes: string }>(
      `SELECT pg_relation_size('"${schema}".search_documents_terms'::regclass)::text AS bytes`,
    );
    console.log(
      `search_documents: ${Number(size.rows[0]?.bytes) / all.length} bytes/lead in all, GIN terms index ${Number(terms.rows[0]?.bytes) / all.length} bytes/lead`,
    );
    const pgIndex = searchIndex(pool, schema);
    const mem = memorySearchIndex();
    for (const d of docs) (await mem.index(d))._unsafeUnwrap();
    const rows: BenchRow[] = [];
    for (const kindName of ['prefix', 'multi-term', 'phrase'] as const) {
      const pool_ = queries(docs, kindName);
      let i = 0;
      let j = 0;
      const ask = (index: typeof mem, n: number) => {
        const parsed = parseSearchText(pool_[n % pool_.length] as string);
        return index.search({ account_id: ACCOUNT, terms: parsed.terms, phrases: parsed.phrases, from: 0, limit: 10 });
      };
      const fast = await measure(async () => (await ask(pgIndex, i++))._unsafeUnwrap(), { seconds: 5 });
      const base = await measure(async () => (await ask(mem, j++))._unsafeUnwrap(), { seconds: 2 });
      let k = 0;
      const pageAlone = await measure(
        async () => {
          const parsed = parseSearchText(pool_[k++ % pool_.length] as string);
          const statements = searchStatement(table, {
            account_id: ACCOUNT,
            terms: parsed.terms,
            phrases: parsed.phrases,
            from: 0,
            limit: 10,
          });
          (await readPage(pool, statements))._unsafeUnwrap();
        },
        { seconds: 3 },
      );
      rows.push(
        row(`search (PostgreSQL): ${kindName} query, 100k leads, p50`, fast.p50, {
          baseline: 'memory index p50',
          baselineValue: base.p50,
          ratio: fast.p50 / base.p50,
        }),
        row(`search (PostgreSQL): ${kindName} query, 100k leads, p99`, fast.p99, {
          baseline: 'memory index p99',
          baselineValue: base.p99,
          ratio: fast.p99 / base.p99,
          target: 'p99 <= 10 ms',
          met: fast.p99 <= 10,
        }),
        row(`search (PostgreSQL): ${kindName} query, 100k leads, page alone (no count), p99`, pageAlone.p99, {
          baseline: 'memory index p99',
          baselineValue: base.p99,
          ratio: pageAlone.p99 / base.p99,
        }),
      );
    }
    return rows;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}
