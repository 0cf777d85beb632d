import { describe, expect, it } from 'vitest';
import { escapeHtml, oneLine, safeUrl, truncate } from './escape';
import { formatCount, formatTime } from './format';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });
  it('escapes an ampersand once, so entities in input stay visible as text', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
  it('leaves other text, including non-ASCII, alone', () => {
    expect(escapeHtml('Café – 100% ✓')).toBe('Café – 100% ✓');
  });
});

describe('oneLine', () => {
  it('turns line breaks and control characters into single spaces', () => {
    expect(oneLine(' a\r\nBcc: x@example.com\t\u2028b  ')).toBe('a Bcc: x@example.com b');
  });
});

describe('truncate', () => {
  it('cuts with an ellipsis only when needed', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });
});

describe('safeUrl', () => {
  it('accepts http and https only', () => {
    expect(safeUrl('https://app.example.com/a?b=1&c=2')).toBe('https://app.example.com/a?b=1&c=2');
    expect(safeUrl('http://localhost:3000/x')).toBe('http://localhost:3000/x');
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl('data:text/html,<b>x</b>')).toBeUndefined();
    expect(safeUrl('/relative')).toBeUndefined();
    expect(safeUrl(undefined)).toBeUndefined();
  });
});

describe('formatTime', () => {
  it('shows the time in the given zone, named', () => {
    expect(formatTime('2025-03-01T13:05:00Z', 'Europe/Berlin')).toBe('2025-03-01 14:05 (Europe/Berlin)');
    expect(formatTime('2025-07-01T00:30:00Z', 'America/New_York')).toBe('2025-06-30 20:30 (America/New_York)');
  });
  it('falls back to UTC for an unknown zone and keeps text that is not a date', () => {
    expect(formatTime('2025-03-01T13:05:00Z', 'Mars/Olympus')).toBe('2025-03-01 13:05 (UTC)');
    expect(formatTime('soon')).toBe('soon');
  });
  it('formats counts with separators', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});
