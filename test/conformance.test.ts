// Keeps docs/conformance.md true: every spec section has its row, every named test file
// exists and holds tests, every quoted title fragment is in its file, and every issue-19
// item names the files whose test titles carry its number.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(`${root}docs/conformance.md`, 'utf8');

interface Row {
  readonly label: string;
  readonly refs: ReadonlyArray<{ readonly file: string; readonly fragment?: string }>;
}

/** The rows of the table that follows `heading` in the document. */
function table(heading: string): Row[] {
  const start = doc.indexOf(`## ${heading}`);
  expect(start, `docs/conformance.md has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const lines = doc.slice(start).split('\n').slice(1);
  const rows: Row[] = [];
  for (const line of lines) {
    if (line.startsWith('## ')) break;
    if (
      !line.startsWith('| ') ||
      line.startsWith('|---') ||
      line.startsWith('| Spec section') ||
      line.startsWith('| Item')
    )
      continue;
    const [label, tests] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    const refs = [...(tests ?? '').matchAll(/`([^`]+\.ts)`(?: › "([^"]+)")?/g)].map(([, file, fragment]) => ({
      file: file ?? '',
      ...(fragment ? { fragment } : {}),
    }));
    rows.push({ label: label ?? '', refs });
  }
  return rows;
}

const sections = table('Spec sections');
const items = table('Spec review items (issue 19)');

function specHeadings(): string[] | undefined {
  const candidates = [process.env.LEADROUTE_SPEC, `${root}../shared/spec/lead-routing-api.md`].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((path) => existsSync(path));
  if (!found) return undefined;
  return readFileSync(found, 'utf8')
    .split('\n')
    .filter((line) => /^#{2,3} /.test(line))
    .map((line) => line.replace(/^#+ /, '').trim());
}

describe('docs/conformance.md', () => {
  it('#19 names at least one test file for every spec section, each existing and holding tests', () => {
    expect(sections.length).toBeGreaterThan(25);
    for (const row of [...sections, ...items]) {
      expect(row.refs.length, `${row.label} names a test file`).toBeGreaterThan(0);
      for (const ref of row.refs) {
        expect(existsSync(`${root}${ref.file}`), `${row.label}: ${ref.file} exists`).toBe(true);
        const text = readFileSync(`${root}${ref.file}`, 'utf8');
        expect(
          /\bit\(|\btest\(|\bit\.each|\bdescribe\(|^\s+name: '/m.test(text),
          `${row.label}: ${ref.file} holds tests`,
        ).toBe(true);
        if (ref.fragment)
          expect(text.includes(ref.fragment), `${row.label}: ${ref.file} mentions "${ref.fragment}"`).toBe(true);
      }
    }
  });

  it('#19 has one row per section heading of the spec, in the spec order', () => {
    const headings = specHeadings();
    const labels = sections.map((row) => row.label);
    expect(new Set(labels).size, 'no section listed twice').toBe(labels.length);
    // The spec lives beside the repository in the workspace it was written in; where it
    // is not there, the table's own list (checked above) stands in for it.
    if (headings) expect(labels).toEqual(headings);
  });

  it('#19 names, for every review item, test files whose titles carry the item number', () => {
    // Every one of the review's 14 items has its row.
    expect(items.map((row) => Number(/^#19\.(\d+)/.exec(row.label)?.[1])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 14 }, (_, i) => i + 1),
    );
    for (const row of items) {
      const number = /^#19\.\d+/.exec(row.label)?.[0];
      expect(number, `${row.label} starts with its item number`).toBeDefined();
      for (const ref of row.refs) {
        const text = readFileSync(`${root}${ref.file}`, 'utf8');
        expect(text.includes(`${number} `), `${ref.file} has a test titled ${number}`).toBe(true);
      }
    }
  });
});
