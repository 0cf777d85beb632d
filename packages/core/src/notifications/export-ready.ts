import type { EmailMessage } from '../ports/notifier';
import { oneLine, truncate } from './escape';
import { formatCount, formatTime } from './format';
import { type MessageBody, renderHtml, renderText } from './layout';

interface ExportNoticeCommon {
  /** The export's `email_to`. */
  readonly to: readonly string[];
  readonly exportId: string;
  /** ISO 8601: when the export stops being downloadable. */
  readonly expiresAt: string;
  /** Where the recipient downloads the file (the host's export page), shown as a link when http(s). */
  readonly downloadUrl?: string;
  /** The account that requested the export, as its users know it. */
  readonly accountName: string;
  /**
   * The account's IANA time zone, for the expiry time.
   * @default 'UTC'
   */
  readonly timeZone?: string;
}

/** A complete export, ready to download. */
export interface ExportReadyFinished extends ExportNoticeCommon {
  readonly status: 'complete';
  readonly fileName: string;
  readonly exportedDocs: number;
}

/** An export that stopped at the row limit: it has no file (only a complete export has one). */
export interface ExportTruncated extends ExportNoticeCommon {
  readonly status: 'truncated';
  /** Rows written before it stopped (the row limit). */
  readonly exportedDocs: number;
  /** Why it stopped (its `reason.message`). */
  readonly reason?: string;
}

/** An export that ended in `error`: the requester learns it will not arrive. */
export interface ExportReadyFailed extends ExportNoticeCommon {
  readonly status: 'error';
  /** The export's `error` text. */
  readonly reason?: string;
}

/** Input of {@link exportReadyMessage}. */
export type ExportReadyInput = ExportReadyFinished | ExportTruncated | ExportReadyFailed;

const SUBJECT_MAX = 200;

/**
 * The e-mail sent to an export's `email_to` when it ends: ready to download
 * (`complete`), stopped at the row limit without a file (`truncated`), or failed
 * (`error`). Holds the file's name and size, never lead data.
 * @example
 * notifier.send(exportReadyMessage({
 *   to: exp.email_to, exportId: exp.id, status: 'complete', fileName: exp.file_name,
 *   exportedDocs: exp.exported_docs, expiresAt: exp.expires_at, accountName: account.name,
 *   timeZone: account.time_zone, downloadUrl: `https://app.example.com/exports/${exp.id}`,
 * }));
 */
export function exportReadyMessage(input: ExportReadyInput): EmailMessage {
  const account = oneLine(input.accountName);
  const expires = formatTime(input.expiresAt, input.timeZone);
  const action = input.downloadUrl === undefined ? undefined : { label: 'Download the export', url: input.downloadUrl };
  const howToDownload =
    action === undefined
      ? `Download it with GET /exports/${input.exportId}/file before ${expires}.`
      : `Download it before ${expires}; after that it can no longer be downloaded.`;
  const footer = `You receive this e-mail because your address was given to be notified about this export of ${account}.`;

  let subject: string;
  let body: MessageBody;
  if (input.status === 'error') {
    subject = `[${account}] Export failed`;
    body = {
      heading: 'Your export failed',
      paragraphs: [
        `The lead export requested for ${account} could not be completed, so there is no file to download.`,
        ...(input.reason ? [`Reason: ${input.reason}`] : []),
        'Request the export again; if it fails again, contact support with the export ID.',
      ],
      facts: [
        ['Status', 'error'],
        ['Export ID', input.exportId],
      ],
      footer,
    };
  } else if (input.status === 'truncated') {
    subject = `[${account}] Export stopped at the row limit`;
    body = {
      heading: 'Your export stopped at the row limit',
      paragraphs: [
        `The lead export requested for ${account} matched more than ${formatCount(input.exportedDocs)} records, the row limit, so it stopped and there is no file to download.`,
        ...(input.reason ? [`Reason: ${input.reason}`] : []),
        'Narrow the date range or the filter rules and request it again.',
      ],
      facts: [
        ['Status', 'truncated'],
        ['Row limit', formatCount(input.exportedDocs)],
        ['Export ID', input.exportId],
      ],
      footer,
    };
  } else {
    const records = formatCount(input.exportedDocs);
    const recordsText = `${records} record${input.exportedDocs === 1 ? '' : 's'}`;
    subject = `[${account}] Export ready: ${oneLine(input.fileName)}`;
    body = {
      heading: 'Your export is ready',
      paragraphs: [
        `The lead export requested for ${account} has finished: the file holds ${recordsText}.`,
        howToDownload,
      ],
      facts: [
        ['File', input.fileName],
        ['Records', records],
        ['Status', input.status],
        ['Available until', expires],
        ['Export ID', input.exportId],
      ],
      ...(action === undefined ? {} : { action }),
      footer,
    };
  }

  return {
    to: [...input.to],
    subject: truncate(oneLine(subject), SUBJECT_MAX),
    text: renderText(body),
    html: renderHtml(body),
    headers: {
      // RFC 3834: tells autoresponders not to answer.
      'Auto-Submitted': 'auto-generated',
      'X-Leadroute-Export-Id': oneLine(input.exportId),
    },
  };
}
