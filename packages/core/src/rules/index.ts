/**
 * The rules engine: rule and rule-set validation, typed lead fields, operators,
 * templating and compilation of rule sets to plain functions.
 */
export type {
  EvalEnv,
  FieldDeclaration,
  FieldType,
  ParsedValue,
  Rhv,
  Rule,
  RuleContext,
  RuleElement,
  RuleInput,
  RuleOutcome,
  RuleSet,
  RuleSetInput,
  RuleSetOp,
  Scalar,
} from '../domain/rules';
export { isRuleSet } from '../domain/rules';
export type { ValidateOptions } from './validate';
export { validateRules, validateRuleSet } from './validate';
export type { ParseOptions } from './fields/parsed';
export { isParsedValue, normalOf } from './fields/parsed';
export { FIELD_TYPES, isFieldType, parseValue } from './fields/parse';
export { EMAIL_LIMITS, isEmailAddress } from './fields/email';
export { STANDARD_LEAD_FIELDS, typeLead } from './lead';
export type { CompiledRuleSet, CompileOptions, LastMatch } from './compile';
export { compileRules, compileRuleSet, evaluateLastMatch } from './compile';
export { referenceEvaluate } from './reference';
export type { NamedOperator, Operator, OperatorArity, OperatorDoc, OperatorRegistry } from './operators/operator';
export { defineOperator } from './operators/operator';
export type {
  BinaryOperatorName,
  BuiltinOperator,
  BuiltinOperatorName,
  UnaryOperatorName,
} from './operators/registry';
export { BUILTIN_OPERATOR_NAMES, BUILTIN_OPERATORS, createOperatorRegistry } from './operators/registry';
export type { CompiledTemplate } from './template';
export { compileTemplate, tryCompileTemplate } from './template';
export { TEMPLATE_HELPERS } from './template-helpers';
export { compilePath, resolvePath } from './path';
