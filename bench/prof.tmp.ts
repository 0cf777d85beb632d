import { compileRuleSet, typeLead, validateRuleSet } from '../packages/core/src/rules';
import { ENV, FIELDS, RAW_LEADS, RULES } from './rules.bench';
const evaluate = compileRuleSet(validateRuleSet(RULES)._unsafeUnwrap());
const ctxs = RAW_LEADS.map((raw) => ({ lead: typeLead(raw, FIELDS, ENV) }));
let n = 0;
const end = performance.now() + 4000;
while (performance.now() < end) for (let i = 0; i < 1000; i++) { evaluate(ctxs[i % 3]!, ENV); n++; }
console.log(n / 4, 'ops/s');
