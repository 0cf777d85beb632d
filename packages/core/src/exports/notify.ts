import { okAsync } from 'neverthrow';
import { exportReadyMessage } from '../notifications';
import type { Account } from '../ports/accounts';
import type { Logger } from '../ports/logger';
import type { Notifier } from '../ports/notifier';
import type { StoredExport } from '../domain/exports';

/**
 * The default notifier: core has no mail transport, so it logs each message's
 * recipients and subject (never the body) and drops it. Pass `memoryOutbox()` or
 * an SMTP notifier to send for real.
 */
export function loggingNotifier(logger: Logger): Notifier {
  return {
    send(message) {
      logger.info({ to: message.to, subject: message.subject }, 'e-mail dropped: no notifier configured');
      return okAsync(undefined);
    },
  };
}

/** Tells the export's `email_to` that it ended; a failure to send is logged, never fatal. */
export async function notifyFinished(
  deps: { notifier: Notifier; logger: Logger },
  exp: StoredExport,
  account: Account,
): Promise<void> {
  if (exp.email_to.length === 0) return;
  const common = {
    to: exp.email_to,
    exportId: exp.id,
    expiresAt: exp.expires_at,
    accountName: account.name,
    timeZone: account.time_zone,
  };
  const message =
    exp.status === 'error'
      ? exportReadyMessage({ ...common, status: 'error', ...(exp.error === undefined ? {} : { reason: exp.error }) })
      : exp.status === 'truncated'
        ? exportReadyMessage({
            ...common,
            status: 'truncated',
            exportedDocs: exp.exported_docs,
            ...(exp.reason === undefined ? {} : { reason: exp.reason.message }),
          })
        : exp.status === 'complete'
          ? exportReadyMessage({
              ...common,
              status: 'complete',
              fileName: exp.file_name ?? '',
              exportedDocs: exp.exported_docs,
            })
          : undefined;
  if (!message) return;
  const sent = await deps.notifier.send(message);
  if (sent.isErr()) deps.logger.warn({ exportId: exp.id, err: sent.error.message }, 'export notice not sent');
}
