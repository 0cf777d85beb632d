import type { WallTime } from '../../time';

/** Whole years from one calendar date to another (an age). */
export function yearsBetween(from: WallTime, to: WallTime): number {
  const beforeBirthday = to.month < from.month || (to.month === from.month && to.day < from.day);
  return to.year - from.year - (beforeBirthday ? 1 : 0);
}
