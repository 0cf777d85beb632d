import type { Id } from '../ids';
import type { AlertSeverity, AlertType, StoredAlert } from '../ports/alerts';
import type { Aggregate, HourCounts } from './aggregate';
import type { AlertSettings } from './defaults';

/** A condition a detector found (or still finds) in one account: what the lifecycle turns into an alert. */
export interface Finding {
  readonly type: AlertType;
  readonly key: string;
  readonly kind: string | null;
  readonly severity: AlertSeverity;
  /** Which of the type's message and detail templates to render. */
  readonly variant: string;
  readonly flow_id: Id | null;
  readonly entity_id: string | null;
  readonly recipient_id: string | null;
  readonly outcome: string | null;
  /** Aggregates only. */
  readonly data: Readonly<Record<string, number>>;
  /** Extra template values (already formatted), besides names and `data`. */
  readonly vars: Readonly<Record<string, string | number>>;
  readonly affected_today: number;
}

/** What every detector reads for one account and pass. */
export interface DetectInput {
  readonly accountId: Id;
  readonly now: number;
  readonly timeZone: string;
  readonly dayStart: number;
  readonly settings: AlertSettings;
  /** The account's source and recipient cells over the longest span any detector needs, per hour. */
  readonly agg: Aggregate;
  /** Per hour of the span, the share of it inside [from, to) (cached per pass). */
  readonly weights: (from: number, to: number) => HourCounts;
  /** The account's active alerts by key. */
  readonly active: ReadonlyMap<string, StoredAlert>;
}

/** Most severe first. */
export const SEVERITY_RANK: Readonly<Record<AlertSeverity, number>> = { critical: 3, serious: 2, warning: 1, info: 0 };

/** Rates are kept to four decimals in `data` so refreshes do not churn on float noise. */
export const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** `0.4213` -> `42.1%`. */
export function percent(rate: number): string {
  return `${Number((rate * 100).toFixed(1))}%`;
}
