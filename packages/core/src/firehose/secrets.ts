import type { FirehoseConfig } from './config';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The configuration as responses and events show it: an inline Azure
 * `connection_string` is a secret and is left out (`credential_id` names a
 * stored credential and is not one).
 */
export function withoutSecrets(config: FirehoseConfig): FirehoseConfig {
  const azure = config.services.azure;
  if (azure?.connection_string === undefined) return config;
  const { connection_string: _secret, ...rest } = azure;
  return { ...config, services: { ...config.services, azure: rest } };
}

/**
 * An inline connection string is write-only: a flow update that gives the azure
 * service without `connection_string` or `credential_id` (as read back from the
 * API) keeps the one stored. Works on the raw request body, before validation.
 */
export function keepSecrets(body: unknown, current: FirehoseConfig | undefined): unknown {
  const stored = current?.services.azure?.connection_string;
  if (stored === undefined || !isRecord(body) || !isRecord(body.firehose)) return body;
  const services = body.firehose.services;
  if (!isRecord(services) || !isRecord(services.azure)) return body;
  const azure = services.azure;
  if (azure.connection_string !== undefined || azure.credential_id !== undefined) return body;
  return {
    ...body,
    firehose: { ...body.firehose, services: { ...services, azure: { ...azure, connection_string: stored } } },
  };
}
