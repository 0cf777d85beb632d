import { escapeHtml, safeUrl } from './escape';

/**
 * What a notification says, independent of format. Both bodies are rendered from
 * one of these, so the plain-text and HTML versions cannot drift apart.
 */
export interface MessageBody {
  readonly heading: string;
  /** Paragraphs under the heading. */
  readonly paragraphs: readonly string[];
  /** Label and value pairs, shown as a table in HTML. */
  readonly facts: readonly (readonly [label: string, value: string])[];
  /** The one thing to click; dropped unless its URL is http(s). */
  readonly action?: { readonly label: string; readonly url: string };
  /** Why the recipient got this e-mail. */
  readonly footer: string;
}

/** The plain-text body. */
export function renderText(body: MessageBody): string {
  const lines: string[] = [body.heading, ''];
  for (const p of body.paragraphs) lines.push(p, '');
  if (body.facts.length > 0) {
    const width = Math.max(...body.facts.map(([label]) => label.length)) + 1;
    for (const [label, value] of body.facts) lines.push(`${`${label}:`.padEnd(width)} ${value}`);
    lines.push('');
  }
  const url = safeUrl(body.action?.url);
  if (body.action && url) lines.push(`${body.action.label}: ${url}`, '');
  // "-- " (with the space) is the signature separator mail clients recognize.
  lines.push('-- ', body.footer, '');
  return lines.join('\n');
}

const FONT = 'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;';

/** The HTML body: a complete document with inline styles only (mail clients drop `<style>`). */
export function renderHtml(body: MessageBody): string {
  const out: string[] = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(body.heading)}</title>`,
    `</head><body style="${FONT}color:#1f2328;line-height:1.5;">`,
    `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(body.heading)}</h1>`,
  ];
  for (const p of body.paragraphs) out.push(`<p style="margin:0 0 12px;">${escapeHtml(p)}</p>`);
  if (body.facts.length > 0) {
    out.push('<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;">');
    for (const [label, value] of body.facts) {
      out.push(
        `<tr><th align="left" style="padding:2px 16px 2px 0;font-weight:600;">${escapeHtml(label)}</th>` +
          `<td style="padding:2px 0;">${escapeHtml(value)}</td></tr>`,
      );
    }
    out.push('</table>');
  }
  const url = safeUrl(body.action?.url);
  if (body.action && url) {
    out.push(`<p style="margin:0 0 16px;"><a href="${escapeHtml(url)}">${escapeHtml(body.action.label)}</a></p>`);
  }
  out.push(
    `<p style="margin:24px 0 0;color:#656d76;font-size:12px;">${escapeHtml(body.footer)}</p>`,
    '</body></html>',
    '',
  );
  return out.join('\n');
}
