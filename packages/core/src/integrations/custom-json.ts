import type { Issue } from '../errors';
import type { DeliveryRequest, DeliveryResult, OutboundModule, RecordedRequest, RecordedResponse } from '../ports/integrations';
import { resolvePath } from '../rules';
import { checks, isRecord } from '../validation';

/** Configuration of `platform-custom.outbound.json`. */
export interface CustomJsonConfig {
  /** Where the mapped lead is POSTed as JSON. */
  readonly url: string;
  /** @default 'POST' */
  readonly method?: 'POST' | 'PUT';
  readonly headers?: Readonly<Record<string, string>>;
  /** Dotted path of the outcome in the JSON response; without it 2xx is success, 4xx failure, 5xx error. */
  readonly outcome_path?: string;
  /** The outcome value that means success. @default 'success' */
  readonly success_value?: string;
  readonly reason_path?: string;
  readonly price_path?: string;
  /** Dotted path of the recipient's own record ID (feedback finds the lead by it). */
  readonly reference_path?: string;
}

const MAX_RECORDED_BODY = 64 * 1024;
const clip = (text: string) => (text.length > MAX_RECORDED_BODY ? `${text.slice(0, MAX_RECORDED_BODY)}…` : text);

function readString(doc: unknown, path: string | undefined): string | undefined {
  if (!path) return undefined;
  const value = resolvePath(doc as Record<string, unknown>, path);
  return value === undefined || value === null ? undefined : String(value);
}

function configProblems(config: Readonly<Record<string, unknown>>): Issue[] {
  const issues: Issue[] = [];
  const url = checks.url()(config.url);
  if (url) issues.push({ path: '/url', message: `url ${url}.` });
  if (config.method !== undefined && config.method !== 'POST' && config.method !== 'PUT') issues.push({ path: '/method', message: 'method must be POST or PUT.' });
  if (config.headers !== undefined && (!isRecord(config.headers) || Object.values(config.headers).some((v) => typeof v !== 'string')))
    issues.push({ path: '/headers', message: 'headers must be an object of strings.' });
  for (const key of ['outcome_path', 'success_value', 'reason_path', 'price_path', 'reference_path'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'string') issues.push({ path: `/${key}`, message: `${key} must be a string.` });
  }
  return issues;
}

async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const config = request.config as unknown as CustomJsonConfig;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...config.headers };
  if (request.credential?.username !== null && request.credential?.username !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${request.credential.username}:${request.credential.password ?? ''}`).toString('base64')}`;
  const body = JSON.stringify(request.lead);
  const started = Date.now();
  const recorded: RecordedRequest = {
    method: config.method ?? 'POST',
    url: config.url,
    version: '1.1',
    // The credential's secret is sent but never recorded.
    headers: { ...headers, ...(headers.authorization ? { authorization: '[redacted]' } : {}) },
    body: clip(body),
    timestamp: started,
  };
  let response: Response;
  let text: string;
  try {
    response = await fetch(config.url, { method: recorded.method, headers, body, signal: request.signal, redirect: 'manual' });
    text = await response.text();
  } catch (e) {
    const reason = request.signal.aborted ? 'The recipient did not answer in time.' : `The recipient could not be reached: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`;
    return { outcome: 'error', reason, transactions: [{ request: recorded, response: null, ms: Date.now() - started }] };
  }
  const recordedResponse: RecordedResponse = {
    status: response.status,
    status_text: response.statusText,
    version: '1.1',
    headers: Object.fromEntries(response.headers),
    body: clip(text),
    timestamp: Date.now(),
  };
  const transactions = [{ request: recorded, response: recordedResponse, ms: recordedResponse.timestamp - started }];
  if (response.status >= 500) return { outcome: 'error', reason: `The recipient answered ${response.status} ${response.statusText}`.trim(), transactions };
  let doc: unknown;
  try {
    doc = text ? JSON.parse(text) : undefined;
  } catch {
    doc = undefined;
  }
  if (config.outcome_path && doc === undefined) return { outcome: 'error', reason: 'The recipient answered with something that is not JSON.', transactions };
  const price = Number(readString(doc, config.price_path));
  const reference = readString(doc, config.reference_path);
  const reasonText = readString(doc, config.reason_path);
  let outcome: DeliveryResult['outcome'];
  if (config.outcome_path) {
    const value = readString(doc, config.outcome_path);
    outcome = value !== undefined && value.toLowerCase() === (config.success_value ?? 'success').toLowerCase() ? 'success' : 'failure';
  } else outcome = response.status >= 200 && response.status < 300 ? 'success' : 'failure';
  return {
    outcome,
    ...(outcome === 'success' ? {} : { reason: reasonText ?? `The recipient answered ${response.status}` }),
    ...(Number.isFinite(price) && config.price_path ? { price } : {}),
    ...(reference ? { reference } : {}),
    transactions,
  };
}

/** The built-in JSON webhook: POSTs the mapped lead as JSON to `config.url` and reads the outcome from the answer. */
export function customJsonModule(): OutboundModule {
  return { id: 'platform-custom.outbound.json', package_version: '1.0.0', deliver, validateConfig: configProblems };
}
