import { tryCompileTemplate } from '../rules/template';
import { toText } from '../rules/values';
import type { AlertSettings } from './defaults';
import { DEFAULT_ALERT_SETTINGS } from './defaults';
import type { Finding } from './finding';

/** What a template sees besides the finding's numbers. */
export interface RenderNames {
  readonly entity_name: string | null;
  readonly flow_name: string | null;
}

function pick(templates: Readonly<Record<string, string>>, variant: string): string | undefined {
  return templates[variant] ?? templates.default ?? Object.values(templates)[0];
}

function renderOne(
  template: string | undefined,
  fallback: string | undefined,
  ctx: Record<string, unknown>,
  env: { now: number; timeZone: string },
): string {
  for (const source of [template, fallback]) {
    if (source === undefined) continue;
    const compiled = tryCompileTemplate(source);
    // Overrides are validated when set; a broken one still never breaks a pass.
    if (compiled.isOk()) return toText(compiled.value(ctx, env)).replace(/\s+/g, ' ').trim();
  }
  return '';
}

/**
 * The message and detail of a finding, from the type's templates for its variant
 * (`messages`/`details` of the effective settings), with its numbers, names and
 * times filled in; dates format in the account's time zone.
 */
export function renderAlertText(
  settings: AlertSettings,
  finding: Finding,
  names: RenderNames,
  env: { now: number; timeZone: string },
): { message: string; detail: string } {
  const type = settings.types[finding.type];
  const defaults = DEFAULT_ALERT_SETTINGS.types[finding.type];
  const ctx: Record<string, unknown> = {
    ...finding.data,
    ...finding.vars,
    type: finding.type,
    kind: finding.kind,
    severity: finding.severity,
    entity_name: names.entity_name ?? finding.entity_id ?? '',
    flow_name: names.flow_name ?? finding.flow_id ?? '',
    time_zone: env.timeZone,
  };
  return {
    message: renderOne(pick(type.messages, finding.variant), pick(defaults.messages, finding.variant), ctx, env),
    detail: renderOne(pick(type.details, finding.variant), pick(defaults.details, finding.variant), ctx, env),
  };
}
