import { DOMParser } from '@xmldom/xmldom';
import { XMLBuilder } from 'fast-xml-parser';
import { JSONPath } from 'jsonpath-plus';
import * as xpath from 'xpath';
import type { Issue } from '../errors';
import type {
  DeliveryRequest,
  DeliveryResult,
  OutboundModule,
  RecordedRequest,
  RecordedResponse,
  Transaction,
} from '../ports/integrations';
import { resolvePath, tryCompileTemplate } from '../rules';
import { compilePattern } from '../rules/regex';
import { deepValidator } from '../schemas/define';
import { type CustomHttpConfig, CustomHttpConfigSchema } from '../schemas/integrations';
import { send } from './http-client';

/** The header every delivery carries the delivery event's ID in (#19.1): the ID feedback names. */
export const EVENT_ID_HEADER = 'x-leadroute-event-id';

/** How the lead is sent: a JSON, form or XML body, or the query of a GET. */
export type HttpFormat = 'json' | 'form' | 'xml' | 'get';

/** The module IDs of the built-in HTTP deliveries. */
export const HTTP_MODULES: Readonly<Record<HttpFormat, string>> = {
  json: 'platform-custom.outbound.json',
  form: 'platform-custom.outbound.form',
  xml: 'platform-custom.outbound.xml',
  get: 'platform-custom.outbound.get',
};

const CONTENT_TYPES: Readonly<Record<Exclude<HttpFormat, 'get'>, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'application/xml',
};

/**
 * The answer's fields read when no path or pattern is configured, as LeadConduit's custom
 * integrations do (#19.2).
 */
const DEFAULT_PATHS = { outcome: 'outcome', reason: 'reason', price: 'price', reference: 'reference' } as const;
const OUTCOMES = new Set(['success', 'failure', 'error']);
/** Headers whose values are secrets: sent, recorded as `[redacted]`. */
const SECRET_HEADER = /authorization|key|token|secret|password|cookie/i;
/** Pause before the first retry after a connection error; each further one waits twice as long. */
export const RETRY_PAUSE_MS = 200;
/** The longest pause between two tries, however many retries are configured. */
export const RETRY_PAUSE_CAP_MS = 2_000;

/** The pause before retry number `tries + 1`: doubling from {@link RETRY_PAUSE_MS}, never above {@link RETRY_PAUSE_CAP_MS}. */
export const retryPause = (tries: number): number => Math.min(RETRY_PAUSE_MS * 2 ** tries, RETRY_PAUSE_CAP_MS);

/** Waits `ms`, or less when `signal` aborts first (the step's timeout): no pause outlives the step. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The URL as recorded on events: a password in it (`https://user:pass@host/`, sent as Basic
 * auth) and the values of query parameters named like secrets (`?api_key=…`) are `[redacted]`.
 */
export function recordedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password) parsed.password = '[redacted]';
  let changed = false;
  const query = new URLSearchParams();
  for (const [name, value] of parsed.searchParams) {
    const secret = SECRET_HEADER.test(name);
    changed ||= secret;
    query.append(name, secret ? '[redacted]' : value);
  }
  if (changed) parsed.search = query.toString();
  return parsed.toString();
}

const MAX_RECORDED_BODY = 64 * 1024;
const clip = (text: string) => (text.length > MAX_RECORDED_BODY ? `${text.slice(0, MAX_RECORDED_BODY)}…` : text);
const xmlBuilder = new XMLBuilder({ format: false, suppressEmptyNode: true });
const checkConfig = deepValidator(CustomHttpConfigSchema);

/** Problems with a step's configuration: its schema, then what only compiling can tell (templates, patterns). */
function configProblems(format: HttpFormat, raw: Readonly<Record<string, unknown>>): Issue[] {
  const checked = checkConfig(raw);
  if (checked.isErr()) return checked.error;
  const config = checked.value;
  const issues: Issue[] = [];
  if (format === 'get' && config.body_template !== undefined)
    issues.push({
      path: '/body_template',
      message: '/body_template is not used by a GET: the lead goes in the query.',
    });
  if (format === 'get' && config.method !== undefined)
    issues.push({ path: '/method', message: '/method is GET for this module.' });
  if (config.body_template !== undefined) {
    const compiled = tryCompileTemplate(config.body_template);
    if (compiled.isErr()) issues.push({ path: '/body_template', message: `/body_template ${compiled.error}.` });
  }
  for (const key of ['outcome_pattern', 'reason_pattern', 'price_pattern', 'reference_pattern'] as const) {
    const source = config[key];
    if (source === undefined) continue;
    const compiled = compilePattern(source);
    if (compiled.isErr()) issues.push({ path: `/${key}`, message: `/${key} ${compiled.error}.` });
  }
  return issues;
}

/** The lead's fields as text pairs: nested values as dotted names, lists repeated. */
function pairs(value: unknown, prefix: string, out: URLSearchParams): URLSearchParams {
  if (Array.isArray(value)) for (const item of value) pairs(item, prefix, out);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) pairs(item, prefix ? `${prefix}.${key}` : key, out);
  else if (value !== undefined) out.append(prefix, value === null ? '' : String(value));
  return out;
}

/** The request for the lead: its URL, headers as sent and as recorded, and body. */
function requestOf(format: HttpFormat, config: CustomHttpConfig, request: DeliveryRequest) {
  const field = config.event_id_field ?? 'event_id';
  // The delivery event's ID goes with the lead, so the recipient can send feedback naming it (spec, feedback rule 3).
  const lead = field === false || field in request.lead ? request.lead : { ...request.lead, [field]: request.event_id };
  const headers: Record<string, string> = {
    ...(format === 'get' ? {} : { 'content-type': CONTENT_TYPES[format] }),
    accept: 'application/json, application/xml;q=0.9, text/*;q=0.8',
    ...config.headers,
    [EVENT_ID_HEADER]: request.event_id,
  };
  const user = config.basic_auth ?? (request.credential?.username ? request.credential : undefined);
  if (user?.username)
    headers.authorization = `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}`;
  let url = config.url;
  let body: string | undefined;
  if (format === 'get') {
    const target = new URL(config.url);
    for (const [name, value] of pairs(lead, '', new URLSearchParams())) target.searchParams.append(name, value);
    url = target.toString();
  } else if (config.body_template !== undefined) {
    const rendered = tryCompileTemplate(config.body_template).map((render) =>
      render({ lead, lead_id: request.lead_id, event_id: request.event_id }),
    );
    body = rendered.isOk() ? String(rendered.value ?? '') : '';
  } else if (format === 'json') body = JSON.stringify(lead);
  else if (format === 'form') body = pairs(lead, '', new URLSearchParams()).toString();
  else
    body = `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ [config.xml_root ?? 'lead']: lead }) as string}`;
  const method = format === 'get' ? 'GET' : (config.method ?? 'POST');
  // Secrets are sent but never recorded.
  const recordedHeaders = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? '[redacted]' : value]),
  );
  return { url, method, headers, body, recordedHeaders };
}

/** The answer, read as what its content type says: a JSON value, an XML document, or neither. */
type Answer = { readonly text: string; readonly json?: unknown; readonly xml?: Node };

function parseAnswer(text: string, contentType: string): Answer {
  if (/xml/i.test(contentType) || /^\s*</.test(text)) {
    try {
      const doc = new DOMParser({ onError: () => undefined }).parseFromString(text, 'text/xml');
      if (doc.documentElement) return { text, xml: doc as unknown as Node };
    } catch {
      // Not XML after all: read as text.
    }
    return { text };
  }
  try {
    return text ? { text, json: JSON.parse(text) as unknown } : { text };
  } catch {
    return { text };
  }
}

/** A value the answer gives at a path (dotted or JSONPath in JSON, XPath in XML), as text. */
function atPath(answer: Answer, path: string | undefined): string | undefined {
  if (!path) return undefined;
  let value: unknown;
  if (answer.xml) {
    try {
      const found = xpath.select(path, answer.xml, true);
      value = typeof found === 'object' && found !== null ? (found as Node).textContent : found;
    } catch {
      value = undefined;
    }
  } else if (path.startsWith('$')) {
    // eval: false: a path cannot run script, whatever the configuration says.
    const found = JSONPath({ path, json: answer.json ?? null, eval: false, wrap: true }) as unknown[];
    value = found[0];
  } else value = resolvePath(answer.json, path);
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The first group a pattern finds in the answer's text. */
function byPattern(answer: Answer, source: string | undefined): string | undefined {
  if (!source) return undefined;
  const compiled = compilePattern(source);
  if (compiled.isErr()) return undefined;
  const matcher = compiled.value.matcher(answer.text);
  if (!matcher.find()) return undefined;
  return (matcher.groupCount() > 0 ? matcher.group(1) : matcher.group()) ?? undefined;
}

/** What the answer says, from its status and body as the configuration reads them. */
function outcomeOf(
  config: CustomHttpConfig,
  status: number,
  statusText: string,
  answer: Answer,
  transactions: readonly Transaction[],
): DeliveryResult {
  const read = (what: keyof typeof DEFAULT_PATHS) => {
    const pathKey = `${what}_path` as const;
    const patternKey = `${what}_pattern` as const;
    if (config[patternKey] !== undefined) return byPattern(answer, config[patternKey]);
    return atPath(answer, config[pathKey] ?? (answer.json !== undefined ? DEFAULT_PATHS[what] : undefined));
  };
  const configured = config.outcome_path !== undefined || config.outcome_pattern !== undefined;
  if (status < 500 && config.outcome_path !== undefined && answer.json === undefined && answer.xml === undefined)
    return {
      outcome: 'error',
      reason: 'The recipient answered with something that is not JSON (nor XML).',
      transactions,
    };
  const stated = read('outcome')?.toLowerCase();
  let outcome: DeliveryResult['outcome'];
  if (status >= 500) outcome = stated === 'failure' ? 'failure' : 'error';
  else if (config.outcome_search !== undefined)
    outcome =
      status >= 200 && status < 300 && answer.text.toLowerCase().includes(config.outcome_search.toLowerCase())
        ? 'success'
        : 'failure';
  else if (configured)
    outcome =
      stated !== undefined && stated === (config.success_value ?? 'success').toLowerCase() ? 'success' : 'failure';
  else if (status < 200 || status >= 300) outcome = stated === 'error' ? 'error' : 'failure';
  // A 2xx answer is a success unless it says otherwise in its own outcome field.
  else outcome = stated !== undefined && OUTCOMES.has(stated) ? (stated as DeliveryResult['outcome']) : 'success';
  const priceText = read('price');
  const price = priceText === undefined ? Number.NaN : Number(priceText);
  const reference = read('reference');
  const fallback =
    status >= 300
      ? `The recipient answered ${status} ${statusText}`.trim()
      : 'The recipient answered without a reason.';
  return {
    outcome,
    ...(outcome === 'success' ? {} : { reason: read('reason') ?? fallback }),
    ...(Number.isFinite(price) ? { price } : {}),
    ...(reference ? { reference } : {}),
    transactions,
  };
}

async function attempt(format: HttpFormat, config: CustomHttpConfig, request: DeliveryRequest) {
  const { url, method, headers, body, recordedHeaders } = requestOf(format, config, request);
  const started = Date.now();
  const recorded: RecordedRequest = {
    method,
    url: recordedUrl(url),
    version: '1.1',
    headers: recordedHeaders,
    body: clip(body ?? ''),
    timestamp: started,
  };
  try {
    const answer = await send({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: request.signal,
    });
    const response: RecordedResponse = {
      status: answer.status,
      status_text: answer.statusText,
      version: '1.1',
      headers: answer.headers,
      body: clip(answer.text),
      timestamp: Date.now(),
    };
    return { recorded, started, answer, response };
  } catch (e) {
    const reason = request.signal.aborted
      ? 'The recipient did not answer in time.'
      : `The recipient could not be reached: ${(e as Error).message}`;
    return { recorded, started, reason };
  }
}

/** Delivers the mapped lead in `format`, retrying a connection error `retries` times, and reads the answer. */
async function deliver(format: HttpFormat, request: DeliveryRequest): Promise<DeliveryResult> {
  const config = request.config as CustomHttpConfig;
  const transactions: Transaction[] = [];
  for (let tries = 0; ; tries++) {
    const made = await attempt(format, config, request);
    if (made.answer && made.response) {
      transactions.push({
        request: made.recorded,
        response: made.response,
        ms: made.response.timestamp - made.started,
      });
      const contentType = made.answer.headers['content-type'] ?? '';
      return outcomeOf(
        config,
        made.answer.status,
        made.answer.statusText,
        parseAnswer(made.answer.text, contentType),
        transactions,
      );
    }
    transactions.push({ request: made.recorded, response: null, ms: Date.now() - made.started });
    if (tries >= (config.retries ?? 0) || request.signal.aborted)
      return { outcome: 'error', reason: made.reason ?? 'The recipient could not be reached.', transactions };
    await pause(retryPause(tries), request.signal);
    if (request.signal.aborted)
      return { outcome: 'error', reason: 'The recipient did not answer in time.', transactions };
  }
}

/**
 * A built-in HTTP delivery: the mapped lead as JSON, a form or XML (or a template of your own)
 * POSTed to `config.url`, or as the query of a GET; the answer's outcome, reason, price and
 * reference read by path, search term or pattern. See docs/integrations.md.
 */
export function httpModule(format: HttpFormat): OutboundModule {
  return {
    id: HTTP_MODULES[format],
    package_version: '1.0.0',
    deliver: (request) => deliver(format, request),
    validateConfig: (config) => configProblems(format, config),
  };
}
