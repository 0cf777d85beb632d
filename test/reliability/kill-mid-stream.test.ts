import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createLeadService } from '@leadroute/core';
import { postgresStorage } from '@leadroute/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_URL,
  databaseAvailable,
  freshSchema,
  type TestSchema,
} from '../../adapters/postgres/src/test-support';
import { qualified } from '../../adapters/postgres/src/sql';
import { call } from '../support/call';
import { type RecipientServer, startRecipientServer } from '../support/recipient-server';

// Issue #18 item 12: a process killed with SIGKILL in the middle of a stream of
// leads must leave every lead it acknowledged whole, and no lead half written
// anywhere: a lead's records (lead, events, rollups, search document) are stored
// together or not at all. The service runs in a child process on the shared
// PostgreSQL server, in a schema of this test's own; the test kills the Node
// process, never the database.
const available = await databaseAvailable('kill-mid-stream.test.ts');

interface Child {
  readonly process: ChildProcess;
  readonly url: string;
}

async function startService(schema: string, databaseUrl: string): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/pg-service.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LEADROUTE_SCHEMA: schema },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (out += chunk));
  const deadline = Date.now() + 60_000;
  while (!/listening on (\S+)\n/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the service did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { process: child, url: (/listening on (\S+)\n/.exec(out) as RegExpExecArray)[1] as string };
}

async function kill(child: Child, signal: NodeJS.Signals): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill(signal);
  await exited;
}

describe.skipIf(!available)('#18.12 SIGKILL in the middle of a stream of leads (PostgreSQL)', () => {
  let db: TestSchema;
  let recipient: RecipientServer;
  let child: Child | undefined;

  beforeAll(async () => {
    db = await freshSchema();
    recipient = await startRecipientServer();
  });
  afterAll(async () => {
    if (child) await kill(child, 'SIGKILL');
    await recipient?.close();
    await db?.drop();
  });

  it('#18.12 every acknowledged lead is whole, and no lead is half written, after three kills mid-stream', async () => {
    const setup = createLeadService({ storage: postgresStorage({ pool: db.pool, schema: db.schema }) });
    const { api_key: key } = (await setup.accounts.create({ name: 'Kill test', time_zone: 'UTC' }))._unsafeUnwrap();
    child = await startService(db.schema, DATABASE_URL);
    const url0 = child.url;
    const entity = async (body: object) =>
      (await call(url0, { path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } }))
        .body.id as string;
    const vendor = await entity({ name: 'Vendor', source: 'seller' });
    const buyer = await entity({ name: 'Buyer', recipient: 'buyer', module_ids: ['platform-custom.outbound.json'] });
    const config = {
      url: recipient.url,
      outcome_path: 'result',
      reason_path: 'reason',
      price_path: 'price',
      reference_path: 'id',
    };
    const step = {
      type: 'recipient',
      entity_id: buyer,
      module_id: 'platform-custom.outbound.json',
      timeout_ms: 5000,
      config,
    };
    // Two deliveries per lead: three events, a rollup row each, a search document and the lead record.
    const flow = await call(url0, {
      path: '/flows',
      key,
      json: { name: 'Kill stream', sources: [{ entity_id: vendor }], steps: [step, step] },
    });
    expect(flow.status).toBe(201);
    const submit = `/flows/${flow.body.id as string}/sources/${vendor}/submit`;

    const acknowledged: string[] = [];
    let stopped = false;
    let n = 0;
    const worker = async () => {
      while (!stopped) {
        const url = child?.url;
        try {
          if (!url) throw new Error('no service');
          const answer = await call(url, {
            path: submit,
            json: { first_name: `Kill${++n}`, email: `k${n}@example.com`, phone_1: '5125550100' },
          });
          if (answer.status === 201) acknowledged.push(answer.body.lead.id as string);
        } catch {
          // The service is down (killed, or not yet back): try again shortly.
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    const whenAcknowledged = async (count: number) => {
      const deadline = Date.now() + 60_000;
      while (acknowledged.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(acknowledged.length).toBeGreaterThanOrEqual(count);
    };
    for (let round = 1; round <= 3; round++) {
      await whenAcknowledged(acknowledged.length + 60);
      await kill(child, 'SIGKILL');
      child = await startService(db.schema, DATABASE_URL);
    }
    await whenAcknowledged(acknowledged.length + 30);
    stopped = true;
    await Promise.all(workers);
    await kill(child, 'SIGTERM');

    const t = (name: string) => qualified(db.schema, name);
    const rows = async <R>(sql: string, values: unknown[] = []) => (await db.pool.query(sql, values)).rows as R[];
    // Every acknowledged lead: its record, its source event, both deliveries, its search document.
    const whole = await rows<{ id: string }>(
      `SELECT l.id FROM ${t('leads')} l
        WHERE l.id = ANY($1::text[])
          AND (SELECT count(*) FROM ${t('events')} e WHERE e.lead_id = l.id AND e.type = 'source') = 1
          AND (SELECT count(*) FROM ${t('events')} e WHERE e.lead_id = l.id AND e.type = 'recipient') = 2
          AND EXISTS (SELECT 1 FROM ${t('search_documents')} s WHERE s.lead_id = l.id)`,
      [acknowledged],
    );
    expect(acknowledged.length).toBeGreaterThan(200);
    expect(new Set(whole.map((r) => r.id)).size).toBe(new Set(acknowledged).size);
    // No half-written lead anywhere, acknowledged or not: every event has its lead, every lead all its records.
    const orphanEvents = await rows<{ id: string; type: string }>(
      `SELECT e.id, e.type FROM ${t('events')} e WHERE NOT EXISTS (SELECT 1 FROM ${t('leads')} l WHERE l.id = e.lead_id)`,
    );
    expect({ count: orphanEvents.length, first: orphanEvents.slice(0, 3) }).toEqual({ count: 0, first: [] });
    const partialLeads = await rows<{ id: string }>(
      `SELECT l.id FROM ${t('leads')} l
        WHERE (SELECT count(*) FROM ${t('events')} e WHERE e.lead_id = l.id) <> 3
           OR NOT EXISTS (SELECT 1 FROM ${t('events')} e WHERE e.lead_id = l.id AND e.type = 'source')
           OR NOT EXISTS (SELECT 1 FROM ${t('search_documents')} s WHERE s.lead_id = l.id)`,
    );
    expect({ count: partialLeads.length, first: partialLeads.slice(0, 3) }).toEqual({ count: 0, first: [] });
    const orphanDocuments = await rows(
      `SELECT s.lead_id FROM ${t('search_documents')} s WHERE NOT EXISTS (SELECT 1 FROM ${t('leads')} l WHERE l.id = s.lead_id)`,
    );
    expect(orphanDocuments).toEqual([]);
    // Rollups count exactly the stored events, hour by hour and kind by kind.
    const counted = await rows<{ hour: string; kind: string; events: number; rollups: number }>(
      `WITH e AS (SELECT to_char(date_trunc('hour', to_timestamp(start_timestamp / 1000.0) AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24') AS hour, type AS kind, count(*)::int AS n
                  FROM ${t('events')} GROUP BY 1, 2),
            r AS (SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS hour, kind, sum(count)::int AS n FROM ${t('rollups')} GROUP BY 1, 2)
       SELECT coalesce(e.hour, r.hour) AS hour, coalesce(e.kind, r.kind) AS kind, coalesce(e.n, 0) AS events, coalesce(r.n, 0) AS rollups
         FROM e FULL JOIN r ON e.hour = r.hour AND e.kind = r.kind ORDER BY 1, 2`,
    );
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.filter((c) => c.events !== c.rollups)).toEqual([]);
  }, 240_000);
});
