// Upstream's validators with upstream's messages, for strategies and other callers.
export * from './field.js';
export * from './names.js';
export * from './objectmeta.js';
export * from './labelselector.js';
export * from './rbac.js';
export { goUnmarshalMapError } from './gojson.js';
