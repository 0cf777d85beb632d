import type { EmailMessage } from '../ports/notifier';
import { oneLine, truncate } from './escape';
import { formatTime } from './format';
import { type MessageBody, renderHtml, renderText } from './layout';

type Severity = 'critical' | 'serious' | 'warning' | 'info';

/**
 * The fields of an alert an e-mail shows. An `Alert` record can be passed as it is:
 * only these fields are read, so its `data` and anything else stay out of the mail.
 * Alerts carry aggregates only, and so do their e-mails.
 */
export interface AlertEmailFacts {
  readonly key: string;
  /** `recipient-failure`, `no-leads`, ... */
  readonly type: string;
  readonly severity: Severity;
  /** One-line headline. */
  readonly message: string;
  /** Second line with the supporting numbers. */
  readonly detail: string;
  readonly flow_name: string | null;
  readonly entity_name: string | null;
  /** ISO 8601. */
  readonly first_seen_at: string;
  /** The account's IANA time zone; times in the e-mail are shown in it. */
  readonly time_zone: string;
}

/** Input of {@link alertMessage}. */
export interface AlertMessageInput {
  /** Who is notified about the account's alerts. */
  readonly to: readonly string[];
  readonly alert: AlertEmailFacts;
  /** `created`: the alert is new; `escalated`: its severity rose. */
  readonly event: 'created' | 'escalated';
  /** The severity before an escalation, shown as "from ... to ...". */
  readonly previousSeverity?: Severity;
  /** The account as its users know it. */
  readonly accountName: string;
  /** The alert in the host's UI, shown as a link when http(s). */
  readonly link?: string;
}

const TYPE_LABELS: Readonly<Record<string, string>> = {
  'recipient-failure': 'Recipient failures',
  'recipient-skip': 'Recipient skips',
  'source-rejects': 'Source rejections',
  'no-leads': 'No leads',
  'new-source': 'New source',
  'duplicate-leads': 'Duplicate leads',
  'invalid-email': 'Invalid e-mail addresses',
  'invalid-phone': 'Invalid phone numbers',
  'missing-tf-cert': 'Missing TrustedForm certificates',
  'tf-failures': 'TrustedForm failures',
};

const SUBJECT_MAX = 200;

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** How an alert type reads in e-mail: `recipient-failure` -> `Recipient failures`. */
export function alertTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? capitalize(type.replace(/-/g, ' '));
}

/**
 * The e-mail about an alert that was created or escalated. Whether to send it
 * (severity, the type's `send_email` setting) is the caller's decision.
 * @example
 * notifier.send(alertMessage({ to, alert, event: 'created', accountName: account.name,
 *   link: `https://app.example.com/alerts/${encodeURIComponent(alert.key)}` }));
 */
export function alertMessage(input: AlertMessageInput): EmailMessage {
  const { alert } = input;
  const account = oneLine(input.accountName);
  const label = alertTypeLabel(alert.type);
  const severity = capitalize(alert.severity);
  const headline = oneLine(alert.message);

  const subject =
    input.event === 'created'
      ? `[${account}] ${severity} alert: ${headline}`
      : `[${account}] Alert escalated to ${alert.severity}: ${headline}`;
  const escalation =
    input.event === 'escalated'
      ? [
          input.previousSeverity === undefined
            ? `This alert's severity rose to ${alert.severity}.`
            : `This alert's severity rose from ${input.previousSeverity} to ${alert.severity}.`,
        ]
      : [];

  const body: MessageBody = {
    heading:
      input.event === 'created' ? `${severity} alert: ${label}` : `Alert escalated to ${alert.severity}: ${label}`,
    paragraphs: [alert.message, ...(alert.detail ? [alert.detail] : []), ...escalation],
    facts: [
      ['Severity', alert.severity],
      ['Type', label],
      ...(alert.flow_name === null ? [] : [['Flow', alert.flow_name] as const]),
      ...(alert.entity_name === null ? [] : [['Entity', alert.entity_name] as const]),
      ['First seen', formatTime(alert.first_seen_at, alert.time_zone)],
      ['Alert key', alert.key],
    ],
    ...(input.link === undefined ? {} : { action: { label: 'View the alert', url: input.link } }),
    footer: `You receive this e-mail because e-mail is switched on for ${label} alerts of ${account}.`,
  };

  return {
    to: [...input.to],
    subject: truncate(oneLine(subject), SUBJECT_MAX),
    text: renderText(body),
    html: renderHtml(body),
    headers: {
      'Auto-Submitted': 'auto-generated',
      'X-Leadroute-Alert-Key': oneLine(alert.key),
      'X-Leadroute-Alert-Type': oneLine(alert.type),
      'X-Leadroute-Alert-Severity': alert.severity,
    },
  };
}
