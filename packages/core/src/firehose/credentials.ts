import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import { isId } from '../ids';
import type { CredentialRecord } from '../ports/credentials';
import type { Storage } from '../ports/storage';
import type { CloudCredential } from './delivery';

/**
 * A stored credential as cloud storage credentials. Type `aws`: `username` is the
 * access key ID and `password` the secret access key. Type `azure`: `password` is
 * the connection string. Types are matched case-insensitively.
 */
export function cloudCredential(record: CredentialRecord): ResultAsync<CloudCredential, LeadrouteError> {
  const type = record.type.toLowerCase();
  if (type === 'aws' && record.username && record.password)
    return okAsync({ service: 'aws', accessKeyId: record.username, secretAccessKey: record.password });
  if (type === 'azure' && record.password) return okAsync({ service: 'azure', connectionString: record.password });
  return errAsync(
    errors.badRequest(
      `Credential ${record.id} cannot reach cloud storage: it needs type aws with username and password, or type azure with password.`,
    ),
  );
}

/** Resolves firehose `credential_id`s through the credentials store. */
export function credentialResolver(
  storage: Storage,
): (credentialId: string) => ResultAsync<CloudCredential, LeadrouteError> {
  return (id) =>
    (isId(id)
      ? storage.credentials.get(id.toLowerCase())
      : okAsync<CredentialRecord | undefined, LeadrouteError>(undefined)
    ).andThen((record) => (record ? cloudCredential(record) : errAsync(errors.notFound('credential', id))));
}
