// CEL validation rules (x-kubernetes-validations) of CustomResourceDefinitions: compiling
// a version's schema once, validating custom resources on create and update, and the
// CRD-time checks of the rules themselves.
export { compileRules, type CompiledRules } from './compile.js';
export { validateRules } from './validate.js';
export { validateRuleDefinitions } from './definitions.js';
