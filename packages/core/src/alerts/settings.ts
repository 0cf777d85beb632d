import type { Issue } from '../errors';
import { overridesIssues } from '../schemas/alerts';
import { tryCompileTemplate } from '../rules/template';
import { isRecord } from '../validation';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './defaults';

export type { AlertSettingsOverrides } from '../schemas/alerts';

/** A layer of overrides as stored: checked by {@link validateOverrides} when it was set. */
type StoredOverrides = Readonly<Record<string, unknown>>;

/** Objects merge key by key; arrays and scalars replace. */
function merge(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/** Platform defaults, then the operator's changes for all accounts, then those for the account. */
export function effectiveSettings(
  layers: readonly (StoredOverrides | undefined)[],
  defaults: AlertSettings = DEFAULT_ALERT_SETTINGS,
): AlertSettings {
  let settings: unknown = defaults;
  for (const layer of layers) if (layer) settings = merge(settings, layer);
  return settings as AlertSettings;
}

/**
 * Checks an operator's overrides against their schema (`AlertSettingsOverridesSchema`), so a typo
 * (`min_volum`) or a wrong type is refused instead of silently ignored; then that each template
 * compiles, which the schema cannot say.
 */
export function validateOverrides(value: unknown): Issue[] {
  const issues = overridesIssues(value);
  if (!isRecord(value) || !isRecord(value.types)) return issues;
  for (const [type, settings] of Object.entries(value.types)) {
    if (!isRecord(settings)) continue;
    for (const key of ['messages', 'details'])
      for (const [variant, template] of Object.entries(isRecord(settings[key]) ? settings[key] : {})) {
        const path = `/types/${type}/${key}/${variant}`;
        if (typeof template !== 'string' || issues.some((i) => i.path === path)) continue;
        const compiled = tryCompileTemplate(template);
        if (compiled.isErr()) issues.push({ path, message: compiled.error });
      }
  }
  return issues;
}
