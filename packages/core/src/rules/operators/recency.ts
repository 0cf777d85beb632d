import { sub } from 'date-fns/sub';
import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';
import { WallDate, wallClockInstant, wallClockMs } from '../../time';
import { parseDateText } from '../fields/dates';
import { isParsedValue, normalOf } from '../fields/parsed';
import type { EvalEnv } from '../../domain/rules';
import { defineOperator, negate } from './operator';

type Unit = 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years';

const UNITS: Record<string, Unit> = {
  m: 'minutes',
  min: 'minutes',
  mins: 'minutes',
  minute: 'minutes',
  minutes: 'minutes',
  h: 'hours',
  hr: 'hours',
  hrs: 'hours',
  hour: 'hours',
  hours: 'hours',
  d: 'days',
  day: 'days',
  days: 'days',
  w: 'weeks',
  wk: 'weeks',
  wks: 'weeks',
  week: 'weeks',
  weeks: 'weeks',
  mo: 'months',
  month: 'months',
  months: 'months',
  y: 'years',
  yr: 'years',
  yrs: 'years',
  year: 'years',
  years: 'years',
};

const DURATION = /^\s*(\d+)\s*([a-z]+)\s*$/i;

interface Window {
  readonly amount: number;
  readonly unit: Unit;
  /** Start of the window for the last (now, zone) seen: evaluations of a batch share it. */
  readonly memo: { now: number; zone: string; start: number };
}

/** Reads `"30 days"`, `"18 years"`, `"2h"`. */
export function parseDuration(rhv: unknown): Result<{ amount: number; unit: Unit }, string> {
  const match = DURATION.exec(String(normalOf(rhv) ?? ''));
  const unit = match ? UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  if (!match || !unit)
    return err('needs "N unit" with unit minutes, hours, days, weeks, months or years (like "30 days")');
  return ok({ amount: Number(match[1]), unit });
}

// Calendar units step on the wall clock of the zone, so "1 day" across a DST change is a calendar day.
function windowStart(window: Window, env: EvalEnv): number {
  const memo = window.memo;
  if (memo.now === env.now && memo.zone === env.timeZone) return memo.start;
  const { amount, unit } = window;
  const start =
    unit === 'minutes' || unit === 'hours'
      ? env.now - amount * (unit === 'minutes' ? 60_000 : 3_600_000)
      : wallClockInstant(
          sub(new WallDate(wallClockMs(env.now, env.timeZone)), { [unit]: amount }).getTime(),
          env.timeZone,
        );
  memo.now = env.now;
  memo.zone = env.timeZone;
  memo.start = start;
  return start;
}

function epochOf(value: unknown, env: EvalEnv): number | null {
  if (isParsedValue(value))
    return typeof value.epoch === 'number' ? value.epoch : parseDateText(value.raw, env.timeZone);
  return parseDateText(value, env.timeZone);
}

/**
 * `is within the last`: the lead date lies between now minus "N unit" and now,
 * inclusive. Needs `env.now` from the service clock; without it nothing is within.
 */
export const isWithinTheLast = defineOperator({
  name: 'is within the last',
  arity: 'binary',
  failText: 'is not within the last',
  prepare: (rhv) =>
    parseDuration(rhv).map((duration) => ({ ...duration, memo: { now: Number.NaN, zone: '', start: 0 } })),
  test: (value, window: Window, env) => {
    if (!Number.isFinite(env.now)) return false;
    const epoch = epochOf(value, env);
    return epoch !== null && epoch <= env.now && epoch >= windowStart(window, env);
  },
});

/** `is not within the last`: the exact complement of `is within the last`. */
export const isNotWithinTheLast = negate(isWithinTheLast, 'is not within the last', 'is within the last');
