import type { Issue } from '../errors';
import type {
  DeliveryRequest,
  DeliveryResult,
  OutboundModule,
  RecordedRequest,
  RecordedResponse,
} from '../ports/integrations';
import { resolvePath } from '../rules';
import { isHttpUrl } from '../schemas/define';
import { isRecord } from '../validation';
import { send } from './http-client';

/** The header every JSON delivery carries the delivery event's ID in (#19.1): the ID feedback names. */
export const EVENT_ID_HEADER = 'x-leadroute-event-id';

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
  /**
   * The body field that carries the delivery event's ID, the ID the recipient sends
   * feedback with (`POST /feedback?event_id=…`); `false` leaves it out of the body (the
   * `X-Leadroute-Event-Id` header always carries it). A mapped field of the same name wins.
   * @default 'event_id'
   */
  readonly event_id_field?: string | false;
}

/**
 * The answer's fields a JSON delivery reads when no path is configured, as LeadConduit's custom integrations do
 * (#19.2).
 */
const DEFAULT_PATHS = { outcome: 'outcome', reason: 'reason', price: 'price', reference: 'reference' } as const;
const OUTCOMES = new Set(['success', 'failure', 'error']);

const MAX_RECORDED_BODY = 64 * 1024;
const clip = (text: string) => (text.length > MAX_RECORDED_BODY ? `${text.slice(0, MAX_RECORDED_BODY)}…` : text);

function readString(doc: unknown, path: string | undefined): string | undefined {
  if (!path) return undefined;
  const value = resolvePath(doc as Record<string, unknown>, path);
  return value === undefined || value === null ? undefined : String(value);
}

function configProblems(config: Readonly<Record<string, unknown>>): Issue[] {
  const issues: Issue[] = [];
  if (typeof config.url !== 'string' || !isHttpUrl(config.url))
    issues.push({ path: '/url', message: 'url must be an http or https URL.' });
  if (config.method !== undefined && config.method !== 'POST' && config.method !== 'PUT')
    issues.push({ path: '/method', message: 'method must be POST or PUT.' });
  if (
    config.headers !== undefined &&
    (!isRecord(config.headers) || Object.values(config.headers).some((v) => typeof v !== 'string'))
  )
    issues.push({ path: '/headers', message: 'headers must be an object of strings.' });
  for (const key of ['outcome_path', 'success_value', 'reason_path', 'price_path', 'reference_path'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'string')
      issues.push({ path: `/${key}`, message: `${key} must be a string.` });
  }
  const field = config.event_id_field;
  if (field !== undefined && field !== false && (typeof field !== 'string' || field === ''))
    issues.push({ path: '/event_id_field', message: 'event_id_field must be a field name or false.' });
  return issues;
}

async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const config = request.config as unknown as CustomJsonConfig;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...config.headers,
    [EVENT_ID_HEADER]: request.event_id,
  };
  if (request.credential?.username !== null && request.credential?.username !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${request.credential.username}:${request.credential.password ?? ''}`).toString('base64')}`;
  // The delivery event's ID goes with the lead, so the recipient can send feedback naming it (spec, feedback rule 3).
  const field = config.event_id_field ?? 'event_id';
  const body = JSON.stringify(
    field === false || field in request.lead ? request.lead : { ...request.lead, [field]: request.event_id },
  );
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
  let status: number;
  let statusText: string;
  let responseHeaders: Readonly<Record<string, string>>;
  let text: string;
  try {
    ({
      status,
      statusText,
      headers: responseHeaders,
      text,
    } = await send({ method: recorded.method, url: config.url, headers, body, signal: request.signal }));
  } catch (e) {
    const reason = request.signal.aborted
      ? 'The recipient did not answer in time.'
      : `The recipient could not be reached: ${(e as Error).message}`;
    return {
      outcome: 'error',
      reason,
      transactions: [{ request: recorded, response: null, ms: Date.now() - started }],
    };
  }
  const recordedResponse: RecordedResponse = {
    status,
    status_text: statusText,
    version: '1.1',
    headers: responseHeaders,
    body: clip(text),
    timestamp: Date.now(),
  };
  const transactions = [{ request: recorded, response: recordedResponse, ms: recordedResponse.timestamp - started }];
  let doc: unknown;
  try {
    doc = text ? JSON.parse(text) : undefined;
  } catch {
    doc = undefined;
  }
  if (status < 500 && config.outcome_path && doc === undefined)
    return { outcome: 'error', reason: 'The recipient answered with something that is not JSON.', transactions };
  // Configured paths win; without them the answer's own outcome, reason, price and reference are read where present.
  const paths = {
    reason: config.reason_path ?? DEFAULT_PATHS.reason,
    price: config.price_path ?? DEFAULT_PATHS.price,
    reference: config.reference_path ?? DEFAULT_PATHS.reference,
  };
  const priceText = readString(doc, paths.price);
  const price = priceText === undefined ? Number.NaN : Number(priceText);
  const reference = readString(doc, paths.reference);
  const reasonText = readString(doc, paths.reason);
  const stated = readString(doc, config.outcome_path ?? DEFAULT_PATHS.outcome)?.toLowerCase();
  let outcome: DeliveryResult['outcome'];
  if (status >= 500) outcome = stated === 'failure' ? 'failure' : 'error';
  else if (config.outcome_path)
    outcome =
      stated !== undefined && stated === (config.success_value ?? 'success').toLowerCase() ? 'success' : 'failure';
  else if (status < 200 || status >= 300) outcome = stated === 'error' ? 'error' : 'failure';
  // A 2xx answer is a success unless it says otherwise in its own outcome field.
  else outcome = stated !== undefined && OUTCOMES.has(stated) ? (stated as DeliveryResult['outcome']) : 'success';
  const fallback =
    status >= 300
      ? `The recipient answered ${status} ${statusText}`.trim()
      : 'The recipient answered without a reason.';
  return {
    outcome,
    ...(outcome === 'success' ? {} : { reason: reasonText ?? fallback }),
    ...(Number.isFinite(price) ? { price } : {}),
    ...(reference ? { reference } : {}),
    transactions,
  };
}

/** The built-in JSON webhook: POSTs the mapped lead as JSON to `config.url` and reads the outcome from the answer. */
export function customJsonModule(): OutboundModule {
  return { id: 'platform-custom.outbound.json', package_version: '1.0.0', deliver, validateConfig: configProblems };
}
