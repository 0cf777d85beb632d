import type { Issue } from '../errors';
import { ALERT_SEVERITIES, ALERT_TYPES } from '../ports/alerts';
import { isEmailAddress } from '../rules/fields/email';
import { tryCompileTemplate } from '../rules/template';
import { isRecord } from '../validation';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './defaults';

/** What an operator changes: any part of {@link AlertSettings}; objects merge key by key, other values replace. */
export type AlertSettingsOverrides = Readonly<Record<string, unknown>>;

/** Objects merge key by key; arrays and scalars replace. */
function merge(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/** Platform defaults, then the operator's changes for all accounts, then those for the account. */
export function effectiveSettings(
  layers: readonly (AlertSettingsOverrides | undefined)[],
  defaults: AlertSettings = DEFAULT_ALERT_SETTINGS,
): AlertSettings {
  let settings: unknown = defaults;
  for (const layer of layers) if (layer) settings = merge(settings, layer);
  return settings as AlertSettings;
}

/** Allowed ranges of numeric settings; a setting not listed takes any finite number ≥ 0. */
const RANGES: Readonly<Record<string, readonly [number, number]>> = {
  window_minutes: [1, 1440],
  baseline_days: [1, 90],
  min_rate: [0, 1],
  baseline_margin: [0, 1],
  resolve_ratio: [0, 1],
  zero_run_hours: [1, 720],
  critical_after_hours: [1, 720],
};

function checkValue(path: string, key: string, value: unknown, model: unknown, issues: Issue[]): void {
  if (key === 'severity') {
    if (!(ALERT_SEVERITIES as readonly unknown[]).includes(value))
      issues.push({ path, message: `severity must be one of ${ALERT_SEVERITIES.join(', ')}.` });
  } else if (key === 'bands') {
    if (!isRecord(value)) return void issues.push({ path, message: 'bands must be an object of rates by severity.' });
    for (const [band, rate] of Object.entries(value)) {
      if (!['critical', 'serious', 'warning'].includes(band))
        issues.push({ path: `${path}/${band}`, message: 'bands are critical, serious or warning.' });
      else if (rate !== undefined && (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)))
        issues.push({ path: `${path}/${band}`, message: 'A band is a rate from 0 to 1.' });
    }
  } else if (key === 'messages' || key === 'details') {
    if (!isRecord(value))
      return void issues.push({ path, message: `${key} must be an object of templates by variant.` });
    for (const [variant, template] of Object.entries(value)) {
      if (typeof template !== 'string') issues.push({ path: `${path}/${variant}`, message: 'A template is a string.' });
      else {
        const compiled = tryCompileTemplate(template);
        if (compiled.isErr()) issues.push({ path: `${path}/${variant}`, message: compiled.error });
      }
    }
  } else if (typeof model === 'number') {
    const [min, max] = RANGES[key] ?? [0, Number.MAX_SAFE_INTEGER];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
      issues.push({ path, message: `${key} must be a number from ${min} to ${max}.` });
  } else if (typeof model === 'boolean') {
    if (typeof value !== 'boolean') issues.push({ path, message: `${key} must be true or false.` });
  }
}

/**
 * Checks an operator's overrides against the shape of the defaults, so a typo
 * (`min_volum`) or a wrong type is refused instead of silently ignored.
 */
export function validateOverrides(value: unknown): Issue[] {
  if (!isRecord(value)) return [{ path: '', message: 'Alert settings overrides must be an object.' }];
  const issues: Issue[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === 'enabled') checkValue('/enabled', key, v, true, issues);
    else if (key === 'email_to') {
      if (!Array.isArray(v) || v.some((a) => typeof a !== 'string' || !isEmailAddress(a)))
        issues.push({ path: '/email_to', message: 'email_to must be an array of e-mail addresses.' });
    } else if (key === 'types') {
      if (!isRecord(v)) {
        issues.push({ path: '/types', message: 'types must be an object keyed by alert type.' });
        continue;
      }
      for (const [type, typeOverrides] of Object.entries(v)) {
        const path = `/types/${type}`;
        if (!(ALERT_TYPES as readonly string[]).includes(type))
          issues.push({ path, message: `${type} is not an alert type.` });
        else if (!isRecord(typeOverrides)) issues.push({ path, message: 'Type settings must be an object.' });
        else {
          const model = DEFAULT_ALERT_SETTINGS.types[type as keyof AlertSettings['types']] as unknown as Record<
            string,
            unknown
          >;
          for (const [setting, s] of Object.entries(typeOverrides)) {
            if (!Object.hasOwn(model, setting))
              issues.push({ path: `${path}/${setting}`, message: `${setting} is not a setting of ${type}.` });
            else checkValue(`${path}/${setting}`, setting, s, model[setting], issues);
          }
        }
      }
    } else issues.push({ path: `/${key}`, message: `${key} is not an alert setting.` });
  }
  return issues;
}
