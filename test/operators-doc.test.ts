import { readFileSync } from 'node:fs';
import { BUILTIN_OPERATORS, defineOperator } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import { LEADCONDUIT_OPERATORS, OPERATORS_DOC_PATH, renderOperatorsDoc } from '../scripts/operators-doc';

describe('docs/operators.md', () => {
  it('#19.4 is what the operator registry generates (run npm run docs:operators after changing an operator)', () => {
    expect(readFileSync(OPERATORS_DOC_PATH, 'utf8')).toBe(renderOperatorsDoc());
  });

  it('#19.4 documents every built-in operator: types, semantics, case rule and an example, and an rhv for binary ones', () => {
    for (const operator of BUILTIN_OPERATORS) {
      const doc = operator.doc;
      expect(doc, operator.name).toBeDefined();
      expect(doc?.types, operator.name).not.toBe('');
      expect(doc?.semantics, operator.name).not.toBe('');
      expect(doc?.caseRule, operator.name).not.toBe('');
      expect(doc?.examples.length, operator.name).toBeGreaterThan(0);
      for (const example of doc?.examples ?? []) expect(example, operator.name).toContain(` ${operator.name}`);
      expect(doc?.rhv === undefined, operator.name).toBe(operator.arity === 'unary');
    }
  });

  it('#19.4 has every LeadConduit operator, with the same arity', () => {
    const ours = new Map(BUILTIN_OPERATORS.map((operator) => [operator.name, operator.arity]));
    for (const lc of LEADCONDUIT_OPERATORS) expect(ours.get(lc.name), lc.name).toBe(lc.unary ? 'unary' : 'binary');
  });

  it('#19.4 would show a missing or undocumented operator, so the comparison cannot pass silently', () => {
    const without = BUILTIN_OPERATORS.filter((operator) => operator.name !== 'is obscene');
    const bare = defineOperator({ name: 'is shiny', arity: 'unary', test: () => true });
    const doc = renderOperatorsDoc([...without, bare]);
    expect(doc).toContain('| is obscene | unary | missing |');
    expect(doc).toContain('| is shiny | unary | undocumented |');
  });
});
