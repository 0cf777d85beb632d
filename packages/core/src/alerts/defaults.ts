import type { AlertType } from '../ports/alerts';

/**
 * Settings of a rate detector (recipient-failure, recipient-skip, source-rejects and
 * the category rejections). A condition fires when, over the last `window_minutes`,
 * at least `min_volume` leads were seen and the rate is at least `min_rate` and at
 * least `baseline_multiplier` × baseline + `baseline_margin`; the baseline is the same
 * rate over the `baseline_days` before the window. An active alert stays until the
 * rate falls below `resolve_ratio` × that threshold (or the volume below
 * `resolve_ratio` × `min_volume`). Severity: the most severe of `bands` whose rate is
 * reached, else `severity`.
 */
export interface RateTypeSettings {
  readonly enabled: boolean;
  readonly send_email: boolean;
  readonly window_minutes: number;
  readonly baseline_days: number;
  readonly min_volume: number;
  readonly min_rate: number;
  readonly baseline_multiplier: number;
  readonly baseline_margin: number;
  readonly resolve_ratio: number;
  readonly severity: 'critical' | 'serious' | 'warning' | 'info';
  readonly bands: Readonly<Partial<Record<'critical' | 'serious' | 'warning', number>>>;
  readonly messages: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, string>>;
}

/**
 * no-leads: a flow that received at least `min_baseline_per_hour` leads an hour over
 * the same hours of the week (the last `zero_run_hours`, in each week of
 * `baseline_days`) and has had none for `zero_run_hours`; `critical_after_hours` of
 * silence makes it critical.
 */
export interface NoLeadsSettings {
  readonly enabled: boolean;
  readonly send_email: boolean;
  readonly baseline_days: number;
  readonly min_baseline_per_hour: number;
  readonly zero_run_hours: number;
  readonly critical_after_hours: number;
  readonly severity: 'critical' | 'serious' | 'warning' | 'info';
  readonly messages: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, string>>;
}

/** new-source: raised on the first lead from a source new to the account, resolved after `resolve_after_hours`. */
export interface NewSourceSettings {
  readonly enabled: boolean;
  readonly send_email: boolean;
  readonly severity: 'critical' | 'serious' | 'warning' | 'info';
  readonly resolve_after_hours: number;
  readonly messages: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, string>>;
}

/** Effective settings of every type, as GET /alerts/settings shows them. */
export interface AlertTypesSettings {
  readonly 'recipient-failure': RateTypeSettings;
  readonly 'recipient-skip': RateTypeSettings;
  readonly 'source-rejects': RateTypeSettings;
  readonly 'duplicate-leads': RateTypeSettings;
  readonly 'invalid-email': RateTypeSettings;
  readonly 'invalid-phone': RateTypeSettings;
  readonly 'missing-tf-cert': RateTypeSettings;
  readonly 'tf-failures': RateTypeSettings;
  readonly 'no-leads': NoLeadsSettings;
  readonly 'new-source': NewSourceSettings;
}

/** Alert Settings (spec): the account switch, who alert e-mail goes to, and each type's settings. */
export interface AlertSettings {
  readonly enabled: boolean;
  /** Addresses that critical and serious alerts are e-mailed to (types with `send_email`). */
  readonly email_to: readonly string[];
  readonly types: AlertTypesSettings;
}

export type RateType = Exclude<AlertType, 'no-leads' | 'new-source'>;

const RATE_DETAIL =
  '{{ rate_pct }} of {{ total }} leads {{ what }} in the last {{ window_minutes }} minutes (baseline {{ baseline_pct }}).';

function rate(over: Partial<RateTypeSettings> & Pick<RateTypeSettings, 'messages' | 'details'>): RateTypeSettings {
  return {
    enabled: true,
    send_email: true,
    window_minutes: 60,
    baseline_days: 7,
    min_volume: 20,
    min_rate: 0.25,
    baseline_multiplier: 2,
    baseline_margin: 0.1,
    resolve_ratio: 0.8,
    severity: 'warning',
    bands: { critical: 0.9, serious: 0.5 },
    ...over,
  };
}

const category = (message: string, what: string): RateTypeSettings =>
  rate({
    min_rate: 0.2,
    bands: { serious: 0.5 },
    messages: { default: message },
    details: { default: RATE_DETAIL.replace('{{ what }}', what) },
  });

/** The platform defaults (DESIGN.md "Detectors"); operators override them per platform or account. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  enabled: true,
  email_to: [],
  types: {
    'recipient-failure': rate({
      messages: { default: '{{ entity_name }} is failing leads' },
      details: { default: RATE_DETAIL.replace('{{ what }}', 'failed or errored at {{ entity_name }}') },
    }),
    'recipient-skip': rate({
      min_rate: 0.5,
      baseline_margin: 0.2,
      bands: { serious: 0.9 },
      messages: { default: '{{ entity_name }} is skipping leads' },
      details: { default: RATE_DETAIL.replace('{{ what }}', 'were skipped by {{ entity_name }}') },
    }),
    'source-rejects': rate({
      messages: {
        failure: 'Leads from {{ entity_name }} are being rejected',
        error: 'Leads from {{ entity_name }} are failing with errors',
      },
      details: {
        failure: RATE_DETAIL.replace('{{ what }}', 'from {{ entity_name }} were rejected'),
        error: RATE_DETAIL.replace('{{ what }}', 'from {{ entity_name }} ended in an error'),
      },
    }),
    'duplicate-leads': category(
      '{{ entity_name }} is sending duplicate leads',
      'from {{ entity_name }} were rejected as duplicates',
    ),
    'invalid-email': category(
      '{{ entity_name }} is sending invalid e-mail addresses',
      'from {{ entity_name }} were rejected for an invalid e-mail address',
    ),
    'invalid-phone': category(
      '{{ entity_name }} is sending invalid phone numbers',
      'from {{ entity_name }} were rejected for an invalid phone number',
    ),
    'missing-tf-cert': category(
      'Leads from {{ entity_name }} are missing TrustedForm certificates',
      'from {{ entity_name }} had no TrustedForm certificate',
    ),
    'tf-failures': category(
      'TrustedForm checks are failing for leads from {{ entity_name }}',
      'from {{ entity_name }} failed the TrustedForm check',
    ),
    'no-leads': {
      enabled: true,
      send_email: true,
      baseline_days: 7,
      min_baseline_per_hour: 5,
      zero_run_hours: 2,
      critical_after_hours: 6,
      severity: 'serious',
      messages: { default: '{{ flow_name }} has received no leads since {{ since }}' },
      details: {
        default:
          'No leads for {{ hours_silent }} hours; this flow usually receives about {{ expected_per_hour }} leads an hour at this time of the week.',
      },
    },
    'new-source': {
      enabled: true,
      send_email: false,
      severity: 'info',
      resolve_after_hours: 24,
      messages: { default: 'New source: {{ entity_name }}' },
      details: { default: 'First lead from {{ entity_name }} at {{ first_seen }}; {{ total }} leads from it today.' },
    },
  },
};
