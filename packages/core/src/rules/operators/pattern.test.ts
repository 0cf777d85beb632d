import { describe, expect, it } from 'vitest';
import { compileRuleSet } from '../compile';
import { typeLead } from '../lead';
import { compileTemplate } from '../template';
import { validateRuleSet } from '../validate';

// `^(a+)+$` backtracks exponentially on a run of a's that ends in another character:
// a backtracking engine (JavaScript's RegExp) took 21 s on 29 characters; at 10,000 it
// would never finish. A linear-time engine answers in milliseconds.
const EVIL = '/^(a+)+$/';
const LONG = `${'a'.repeat(10_000)}!`;
// Generous for a busy shared machine: linear time is ~20 ms here, backtracking is forever.
const FAST_MS = 200;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe('tenant patterns run in linear time', () => {
  it('#18.6 evaluates /^(a+)+$/ in a compiled flow rule against a 10,000-character value quickly', () => {
    const set = validateRuleSet({
      op: 'and',
      rules: [{ lhv: 'lead.comments', op: 'matches pattern', rhv: EVIL }],
    })._unsafeUnwrap();
    const rule = compileRuleSet(set);
    const lead = typeLead({ comments: LONG });
    const { value, ms } = timed(() => rule({ lead }));
    expect(value).toEqual({ pass: false, reason: `lead.comments does not match pattern ${EVIL}` });
    expect(ms).toBeLessThan(FAST_MS);
    expect(rule({ lead: typeLead({ comments: 'a'.repeat(10_000) }) })).toEqual({ pass: true });
  });

  it('#18.6 evaluates the same pattern in the template helpers replace and extract quickly', () => {
    const ctx = { lead: { x: LONG } };
    const replaced = timed(() => compileTemplate(`{{ replace lead.x "${EVIL}" "" }}`)(ctx));
    expect(replaced.value).toBe(LONG);
    expect(replaced.ms).toBeLessThan(FAST_MS);
    const extracted = timed(() => compileTemplate(`{{ extract lead.x "${EVIL}" 0 }}`)(ctx));
    expect(extracted.value).toBe('');
    expect(extracted.ms).toBeLessThan(FAST_MS);
  });

  it('#18.6 template helpers refuse what RE2 cannot run instead of running it', () => {
    expect(compileTemplate('{{ extract lead.x "(a)\\1" 0 }}')({ lead: { x: 'aa' } })).toBe('');
    expect(compileTemplate('{{ replace lead.x "/(?=a)a/" "b" }}')({ lead: { x: 'aa' } })).toBe('aa');
    expect(compileTemplate('{{ replace lead.x "/A/gi" "b" }}')({ lead: { x: 'aA' } })).toBe('bb');
  });
});
