const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and quoted attribute values: `& < > " '`.
 * Every value that reaches an HTML body goes through this; nothing is parsed.
 * @example escapeHtml('<b>Tom & "Jerry"</b>') // '&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Text as one line: line breaks and other control characters become spaces and runs
 * of spaces collapse. Subjects and header values must not break lines (a line break
 * there would start a new header).
 */
export function oneLine(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim()
  );
}

/** `text` cut to at most `max` characters, ending in `…` when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * `url` when it is an absolute `http:` or `https:` URL, else `undefined`, so that a
 * link in a message can never be `javascript:` or `data:`.
 */
export function safeUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
