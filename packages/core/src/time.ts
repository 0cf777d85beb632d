const known = new Map<string, boolean>();

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return false;
  let ok = known.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    known.set(zone, ok);
  }
  return ok;
}

let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC text of a clock reading. */
export function isoTime(ms: number): string {
  // One request formats the same clock reading several times, and formatting is slow.
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
