import { describe, expect, it } from 'vitest';
import { normalizeFirehoseConfig } from './config';
import { cloudCredential } from './credentials';
import { keepSecrets, withoutSecrets } from './secrets';

const CS = 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=c2VjcmV0;';
const config = normalizeFirehoseConfig({
  enabled: true,
  services: {
    azure: { bucket: 'events', connection_string: CS, prefix: 'p' },
    aws: { credential_id: 'c1', bucket: 'b-1' },
  },
})._unsafeUnwrap();

describe('firehose secrets', () => {
  it('leaves an inline connection string out of what is shown, and nothing else', () => {
    const shown = withoutSecrets(config);
    expect(JSON.stringify(shown)).not.toContain('AccountKey');
    expect(shown).toEqual({
      enabled: true,
      services: {
        azure: { enabled: true, bucket: 'events', prefix: 'p' },
        aws: { enabled: true, credential_id: 'c1', bucket: 'b-1' },
      },
    });
    const plain = normalizeFirehoseConfig({ enabled: true, credential_id: 'c1', bucket: 'b-1' })._unsafeUnwrap();
    expect(withoutSecrets(plain)).toBe(plain);
  });

  it('keeps the stored connection string when an update gives neither it nor a credential', () => {
    const body = { name: 'F', firehose: { enabled: true, services: { azure: { bucket: 'events' } } } };
    expect(keepSecrets(body, config)).toEqual({
      name: 'F',
      firehose: { enabled: true, services: { azure: { bucket: 'events', connection_string: CS } } },
    });
    const replaced = { firehose: { services: { azure: { bucket: 'events', connection_string: 'other' } } } };
    expect(keepSecrets(replaced, config)).toBe(replaced);
    const moved = { firehose: { services: { azure: { bucket: 'events', credential_id: 'c2' } } } };
    expect(keepSecrets(moved, config)).toBe(moved);
    expect(keepSecrets(body, undefined)).toBe(body);
  });
});

describe('stored credentials as cloud credentials', () => {
  const record = (type: string, username: string | null, password: string | null) =>
    ({
      id: 'c',
      account_id: 'a',
      name: 'n',
      type,
      package: null,
      username,
      password,
      created_at: '',
      updated_at: '',
    }) as const;

  it('reads aws (username = access key ID, password = secret) and azure (password = connection string)', async () => {
    expect((await cloudCredential(record('aws', 'AKIA1', 's3cret')))._unsafeUnwrap()).toEqual({
      service: 'aws',
      accessKeyId: 'AKIA1',
      secretAccessKey: 's3cret',
    });
    expect((await cloudCredential(record('Azure', null, CS)))._unsafeUnwrap()).toEqual({
      service: 'azure',
      connectionString: CS,
    });
  });

  it('refuses other types and incomplete credentials without showing the secret', async () => {
    for (const r of [record('user', 'u', 'p'), record('aws', null, 's3cret'), record('azure', 'x', null)]) {
      const error = (await cloudCredential(r))._unsafeUnwrapErr();
      expect(error.type).toBe('BadRequest');
      expect(error.message).not.toContain('s3cret');
    }
  });
});
