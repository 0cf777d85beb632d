const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      f = null;
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * A timestamp as people read it in e-mail: `2025-03-01 14:05 (Europe/Berlin)`.
 * Built from parts rather than a locale string, so the text is the same on every
 * ICU version. An unknown time zone falls back to UTC; text that is not a date is
 * returned as it came.
 * @param iso ISO 8601 date-time
 * @param timeZone IANA time zone, e.g. the account's
 */
export function formatTime(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const zone = formatterFor(timeZone) ? timeZone : 'UTC';
  const f = formatterFor(zone);
  if (!f) return date.toISOString();
  const parts = f.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} (${zone})`;
}

/** A count with thousands separators: `12,345`. */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? Math.trunc(n).toLocaleString('en-US') : String(n);
}
