import { describe, expect, it } from 'vitest';
import { ENV_VARS, readConfig } from '../../servers/leadroute/src/config';
import { jsonLogger } from '../../servers/leadroute/src/logger';

describe('#21.12 the production server configuration', () => {
  it('#21.12 an empty environment is the zero-config in-memory server on loopback, with the documented defaults', () => {
    const config = readConfig({})._unsafeUnwrap();
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: undefined,
      smtp: undefined,
      bootstrap: undefined,
      s3: { region: 'us-east-1', forcePathStyle: false, exports: undefined },
      exports: { pageSize: 1000, pollMs: 5000 },
      alerts: { intervalMs: 60_000 },
      retentionIntervalMs: 3_600_000,
      firehoseIntervalMs: 5000,
      logLevel: 'info',
      shutdownTimeoutMs: 20_000,
    });
    // The table's defaults are the ones applied.
    const documented = Object.fromEntries(ENV_VARS.map((v) => [v.name, v.default]));
    expect(documented).toMatchObject({
      PORT: '3000',
      HOST: '127.0.0.1',
      LEADROUTE_EXPORT_PAGE_SIZE: '1000',
      LEADROUTE_SHUTDOWN_TIMEOUT_MS: '20000',
    });
  });

  it('#21.12 reads PostgreSQL, S3, SMTP, alert settings and the bootstrap account', () => {
    const config = readConfig({
      DATABASE_URL: 'postgres://u:p@db/leadroute',
      LEADROUTE_DATABASE_SCHEMA: 'lr',
      LEADROUTE_S3_BUCKET: 'exports',
      LEADROUTE_S3_ACCESS_KEY_ID: 'AKIA',
      LEADROUTE_S3_SECRET_ACCESS_KEY: 'secret',
      LEADROUTE_S3_FORCE_PATH_STYLE: 'true',
      LEADROUTE_SMTP_URL: 'smtp://mail:25',
      LEADROUTE_ALERT_SETTINGS: '{"email_to":["ops@example.com"]}',
      LEADROUTE_BOOTSTRAP_ACCOUNT_NAME: 'Ops',
      LEADROUTE_BOOTSTRAP_API_KEY: 'k'.repeat(20),
    })._unsafeUnwrap();
    expect(config.database).toEqual({ url: 'postgres://u:p@db/leadroute', schema: 'lr', poolMax: 10 });
    expect(config.s3).toMatchObject({
      forcePathStyle: true,
      exports: { bucket: 'exports', accessKeyId: 'AKIA', secretAccessKey: 'secret', prefix: '' },
    });
    expect(config.smtp).toEqual({ url: 'smtp://mail:25', from: 'Leadroute <leadroute@localhost>' });
    expect(config.alerts.settings).toEqual({ email_to: ['ops@example.com'] });
    expect(config.bootstrap).toEqual({ name: 'Ops', apiKey: 'k'.repeat(20), timeZone: 'UTC' });
  });

  it('#21.12 refuses a bad environment with every problem at once, never echoing a secret', () => {
    const problems = readConfig({
      PORT: 'eighty',
      LEADROUTE_S3_BUCKET: 'exports',
      LEADROUTE_SMTP_URL: 'http://user:hunter2@mail',
      LEADROUTE_ALERT_SETTINGS: '[1]',
      LEADROUTE_BOOTSTRAP_API_KEY: 'only-the-key-0123456789',
      LEADROUTE_LOG_LEVEL: 'loud',
      LEADROUTE_S3_FORCE_PATH_STYLE: 'maybe',
    })._unsafeUnwrapErr();
    expect(problems).toHaveLength(7);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems.join('\n')).not.toContain('only-the-key');
  });
});

describe('#21.12 export files in Azure Blob', () => {
  it('#21.12 reads the Azure export container, and refuses two export destinations or half a setting', () => {
    const azure = {
      LEADROUTE_AZURE_CONNECTION_STRING: 'AccountName=a;AccountKey=k',
      LEADROUTE_AZURE_CONTAINER: 'exports',
    };
    expect(readConfig(azure)._unsafeUnwrap().azure.exports).toEqual({
      connectionString: 'AccountName=a;AccountKey=k',
      container: 'exports',
      prefix: '',
    });
    const s3 = { LEADROUTE_S3_BUCKET: 'b', LEADROUTE_S3_ACCESS_KEY_ID: 'id', LEADROUTE_S3_SECRET_ACCESS_KEY: 'secret' };
    expect(readConfig({ ...azure, ...s3 })._unsafeUnwrapErr()).toEqual([expect.stringContaining('not both')]);
    expect(readConfig({ LEADROUTE_AZURE_CONTAINER: 'exports' })._unsafeUnwrapErr()).toEqual([
      expect.stringContaining('go together'),
    ]);
  });
});

describe('#21.12 the JSON-lines logger', () => {
  it('#21.12 writes one JSON object per line with level, time and message, drops lines below its level, and keeps errors readable', () => {
    const lines: string[] = [];
    const logger = jsonLogger('info', { service: 'leadroute' }, (line) => lines.push(line));
    logger.debug({ noisy: true }, 'dropped');
    logger.info({ url: 'http://x' }, 'listening');
    logger.error({ err: new Error('boom', { cause: new Error('root') }) }, 'failed');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    logger.warn({ cyclic }, 'odd');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
    const [info, error, warn] = lines.map((l) => JSON.parse(l));
    expect(info).toMatchObject({ level: 'info', service: 'leadroute', url: 'http://x', msg: 'listening' });
    expect(Number.isNaN(Date.parse(info.time))).toBe(false);
    expect(error).toMatchObject({
      level: 'error',
      err: { name: 'Error', message: 'boom', cause: { message: 'root' } },
      msg: 'failed',
    });
    expect(warn).toMatchObject({ level: 'warn', msg: 'odd' });
  });
});

describe('#23.4 one of several instances', () => {
  const s3 = { LEADROUTE_S3_BUCKET: 'b', LEADROUTE_S3_ACCESS_KEY_ID: 'id', LEADROUTE_S3_SECRET_ACCESS_KEY: 'secret' };
  const db = { DATABASE_URL: 'postgres://u:p@db/leadroute' };

  it('#23.4 LEADROUTE_INSTANCES above 1 refuses export files in memory, naming the S3 and Azure settings', () => {
    expect(readConfig({ ...db })._unsafeUnwrap().instances).toBe(1);
    const problems = readConfig({ ...db, LEADROUTE_INSTANCES: '3' })._unsafeUnwrapErr();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('LEADROUTE_INSTANCES is 3');
    for (const name of ['LEADROUTE_S3_BUCKET', 'LEADROUTE_AZURE_CONNECTION_STRING', 'LEADROUTE_AZURE_CONTAINER'])
      expect(problems[0]).toContain(name);
    expect(readConfig({ ...db, ...s3, LEADROUTE_INSTANCES: '3' })._unsafeUnwrap()).toMatchObject({
      instances: 3,
      s3: { exports: { bucket: 'b' } },
    });
    const azure = { LEADROUTE_AZURE_CONNECTION_STRING: 'AccountName=a;AccountKey=k', LEADROUTE_AZURE_CONTAINER: 'x' };
    expect(readConfig({ ...db, ...azure, LEADROUTE_INSTANCES: '2' }).isOk()).toBe(true);
    // A directory every instance mounts works only with one link secret for all of them.
    expect(readConfig({ ...db, LEADROUTE_INSTANCES: '2', LEADROUTE_EXPORT_DIR: '/shared' })._unsafeUnwrapErr()).toEqual(
      [expect.stringContaining('LEADROUTE_EXPORT_LINK_SECRET')],
    );
    expect(
      readConfig({
        ...db,
        LEADROUTE_INSTANCES: '2',
        LEADROUTE_EXPORT_DIR: '/shared',
        LEADROUTE_EXPORT_LINK_SECRET: 'k'.repeat(32),
      }).isOk(),
    ).toBe(true);
  });

  it('#23.4 several instances need the shared PostgreSQL, and one instance is what an unset variable means', () => {
    expect(readConfig({ ...s3, LEADROUTE_INSTANCES: '2' })._unsafeUnwrapErr()).toEqual([
      expect.stringContaining('DATABASE_URL'),
    ]);
    expect(readConfig({ LEADROUTE_INSTANCES: '0' })._unsafeUnwrapErr()).toEqual([
      expect.stringContaining('LEADROUTE_INSTANCES must be an integer of at least 1'),
    ]);
    expect(readConfig({})._unsafeUnwrap()).toMatchObject({ instances: 1, exports: { leaseMs: 120_000 } });
    expect(readConfig({ LEADROUTE_EXPORT_LEASE_MS: '5000' })._unsafeUnwrap().exports.leaseMs).toBe(5000);
  });

  it('#23.4 the production entry point exits non-zero with that message instead of starting', async () => {
    const { execFile } = await import('node:child_process');
    const { root, imageCommand } = await import('./server-process');
    const [command, ...args] = imageCommand;
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        command === 'node' ? process.execPath : (command as string),
        args,
        { cwd: root, env: { ...process.env, ...db, LEADROUTE_INSTANCES: '3', PORT: '0' }, timeout: 30_000 },
        (_e, stdout) => resolve({ code: child.exitCode, stdout }),
      );
    });
    expect(result.code).toBe(2);
    const line = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    expect(line).toMatchObject({ level: 'error', msg: 'invalid configuration' });
    expect(line.problems.join('\n')).toMatch(/LEADROUTE_S3_BUCKET.*LEADROUTE_AZURE_CONNECTION_STRING/);
  }, 40_000);
});
