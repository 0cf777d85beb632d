import { createHttpHandler, type Logger, scriptedRecipient } from '@leadroute/core';
import { createTestService } from '@leadroute/testkit';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';

// Invariant: each request and each lead step leaves one structured log line with a
// request ID or the lead's IDs, and nothing at info level carries lead data or secrets.
describe('logging', () => {
  it('logs every request and every lead step, with no lead data or secrets at info level', async () => {
    const lines: { level: string; obj: object; msg: string | undefined }[] = [];
    const logger: Logger = Object.fromEntries(
      (['debug', 'info', 'warn', 'error'] as const).map((level) => [
        level,
        (obj: object, msg?: string) => lines.push({ level, obj, msg }),
      ]),
    ) as unknown as Logger;
    const buyer = scriptedRecipient('platform-test.outbound.log-buyer');
    buyer.respondWith({ outcome: 'failure', reason: 'Rejected zelda.quartermaine@example.com' });
    const t = await createTestService({ logger, integrations: [buyer] });
    const { sourceId, recipientId } = await t.entities();
    const flow = (
      await t.service.flows.create(t.principal, {
        name: 'Logged',
        sources: [{ entity_id: sourceId }],
        steps: [
          {
            type: 'filter',
            entity_id: recipientId,
            rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'NY' }] },
          },
          { type: 'recipient', entity_id: recipientId, module_id: buyer.id },
        ],
      })
    )._unsafeUnwrap();
    const handle = createHttpHandler(t.service);
    const res = await handle({
      method: 'POST',
      url: `/flows/${flow.id}/sources/${sourceId}/submit`,
      headers: {
        'content-type': 'application/json',
        'x-request-id': 'req-42',
        authorization: 'Bearer not-a-secret-we-log',
      },
      body: JSON.stringify({
        first_name: 'Zelda',
        last_name: 'Quartermaine',
        email: 'zelda.quartermaine@example.com',
        ssn: '123-45-6789',
      }),
    });
    expect(res.status).toBe(201);

    const steps = lines.filter((l) => l.msg === 'lead step');
    expect(steps.map((l) => (l.obj as { type: string }).type).sort()).toEqual(['filter', 'recipient', 'source']);
    expect(steps.every((l) => l.level === 'info' && (l.obj as { lead_id?: string }).lead_id)).toBe(true);
    const request = lines.find((l) => l.msg === 'request');
    expect(request?.obj).toMatchObject({ requestId: 'req-42', method: 'POST', status: 201 });

    const info = JSON.stringify(lines.filter((l) => l.level === 'info' || l.level === 'debug'));
    for (const secret of ['Zelda', 'Quartermaine', 'zelda.quartermaine', '123-45-6789', 'not-a-secret-we-log'])
      expect(info).not.toContain(secret);
  });
});

describe('a storage failure', () => {
  it.each([
    ['StorageUnavailable', 503],
    ['StorageFailure', 503],
  ] as const)(
    '%s: the caller gets a detail without the store message (database, address, operation), which is logged with the request ID',
    async (type, status) => {
      const message = '[leadroute] [postgres] get event failed: connect ECONNREFUSED 10.0.0.5:5432';
      const lines: { level: string; obj: object; msg: string | undefined }[] = [];
      const logger = Object.fromEntries(
        (['debug', 'info', 'warn', 'error'] as const).map((level) => [
          level,
          (obj: object, msg?: string) => lines.push({ level, obj, msg }),
        ]),
      ) as unknown as Logger;
      const t = await createTestService({ logger });
      const storage = t.service.storage;
      // Every event read fails, as it does with the database down.
      Object.assign(storage.events, { get: () => errAsync({ type, message, cause: new Error('ECONNREFUSED') }) });
      const handle = createHttpHandler(t.service);
      // Key-less: feedback naming a delivery event.
      const res = await handle({
        method: 'POST',
        url: `/feedback?event_id=${'e'.repeat(24)}`,
        headers: { 'content-type': 'application/json', 'content-length': '21', 'x-request-id': 'req-7' },
        body: JSON.stringify({ type: 'conversion' }),
      });
      expect(res.status).toBe(status);
      const body = JSON.parse(Buffer.from(res.body as Uint8Array).toString('utf8')) as { code: string; detail: string };
      expect(body.code).toBe(type);
      for (const internal of ['postgres', '10.0.0.5', 'ECONNREFUSED', 'get event'])
        expect(body.detail).not.toContain(internal);
      expect(lines.find((l) => l.level === 'error' && l.msg === message)?.obj).toMatchObject({
        requestId: 'req-7',
        type,
      });
    },
  );
});
