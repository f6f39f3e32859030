// The result of validating a value against an OpenAPI schema, shaped like kube-openapi's
// validate.Result: errors kept unique by their text, and a match count that anyOf/oneOf
// use to pick which failing branch to report. The error constructors carry kube-openapi's
// message templates ("%s in body must be of type %s: %q", ...), and toFieldErrors is
// apiextensions' kubeOpenAPIResultToFieldErrors, which maps each onto a field.Error.
import { goQuote } from '../../../runtime/gofmt.js';
import type { FieldError } from '../../../runtime/errors.js';
import { child, invalid, notSupported, required } from '../../validation/field.js';
import { badValue } from './gofmt.js';

export type ValidationCode =
  | 'invalidType' | 'required' | 'tooLong' | 'tooShort' | 'pattern' | 'enum' | 'multipleOf'
  | 'max' | 'min' | 'unique' | 'maxItems' | 'minItems' | 'tooFewProperties' | 'tooManyProperties'
  | 'unallowedProperty' | 'multipleOfMustBePositive';

/** errors.Validation: tied to a value at a path. */
export interface ValidationError {
  kind: 'validation';
  code: ValidationCode;
  /** The path as kube-openapi writes it ("spec.size", ".spec" for a root required field). */
  name: string;
  /** The offending value, absent when upstream leaves it nil. */
  value?: unknown;
  /** The limit that was crossed (maxLength, maxItems, maxProperties). */
  limit?: number;
  enumValues?: unknown[];
  message: string;
}

/** errors.New(CompositeErrorCode, ...): allOf/anyOf/oneOf/not verdicts, not tied to a value. */
export interface CompositeError {
  kind: 'composite';
  message: string;
}

export type OpenAPIError = ValidationError | CompositeError;

export class Result {
  errors: OpenAPIError[] = [];
  matchCount = 0;

  static of(err: OpenAPIError): Result {
    const r = new Result();
    r.errors.push(err);
    return r;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }

  inc(): void {
    this.matchCount++;
  }

  add(...errs: OpenAPIError[]): void {
    for (const e of errs) {
      if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
    }
  }

  merge(...others: Array<Result | undefined>): this {
    for (const o of others) {
      if (!o) continue;
      this.add(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }
}

const IN = 'body';

function v(code: ValidationCode, name: string, message: string, extra: Partial<ValidationError> = {}): ValidationError {
  return { kind: 'validation', code, name, message, ...extra };
}

export const openapiErrors = {
  /** `value` is the offending type (or format) name, as kube-openapi passes it. */
  invalidType: (name: string, typeName: string, value: string) =>
    v('invalidType', name, `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`, { value }),
  required: (name: string) => v('required', name, `${name} in ${IN} is required`),
  tooLong: (name: string, max: number, value: string) =>
    v('tooLong', name, `${name} in ${IN} should be at most ${max} chars long`, { value, limit: max }),
  tooShort: (name: string, min: number, value: string) =>
    v('tooShort', name, `${name} in ${IN} should be at least ${min} chars long`, { value }),
  pattern: (name: string, pattern: string, value: string) =>
    v('pattern', name, `${name} in ${IN} should match '${pattern}'`, { value }),
  enum: (name: string, value: unknown, values: unknown[]) =>
    v('enum', name, `${name} in ${IN} should be one of ${goList(values)}`, { value, enumValues: values }),
  multipleOf: (name: string, factor: string, value: unknown) =>
    v('multipleOf', name, `${name} in ${IN} should be a multiple of ${factor}`, { value }),
  multipleOfMustBePositive: (name: string, factorText: string, factor: number) =>
    v('multipleOfMustBePositive', name, `factor MultipleOf declared for ${name} must be positive: ${factorText}`, { value: factor }),
  max: (name: string, max: string, exclusive: boolean, value: unknown) =>
    v('max', name, `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${max}`, { value }),
  min: (name: string, min: string, exclusive: boolean, value: unknown) =>
    v('min', name, `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${min}`, { value }),
  unique: (name: string) => v('unique', name, `${name} in ${IN} shouldn't contain duplicates`),
  maxItems: (name: string, max: number, size: number) =>
    v('maxItems', name, `${name} in ${IN} should have at most ${max} items`, { value: size, limit: max }),
  minItems: (name: string, min: number, size: number) =>
    v('minItems', name, `${name} in ${IN} should have at least ${min} items`, { value: size }),
  tooFewProperties: (name: string, min: number, size: number) =>
    v('tooFewProperties', name, `${name} in ${IN} should have at least ${min} properties`, { value: size }),
  tooManyProperties: (name: string, max: number, size: number) =>
    v('tooManyProperties', name, `${name} in ${IN} should have at most ${max} properties`, { value: size, limit: max }),
  unallowedProperty: (name: string, key: string) =>
    v('unallowedProperty', name, `${name}.${key} in ${IN} is a forbidden property`, { value: key }),
  anyOf: (path: string): CompositeError => ({ kind: 'composite', message: `${goQuote(path)} must validate at least one schema (anyOf)` }),
  oneOf: (path: string, found: number): CompositeError => ({
    kind: 'composite',
    message: `${goQuote(path)} must validate one and only one schema (oneOf). ${found === 0 ? 'Found none valid' : `Found ${found} valid alternatives`}`,
  }),
  allOf: (path: string, noneValidated: boolean): CompositeError => ({
    kind: 'composite', message: `${goQuote(path)} must validate all the schemas (allOf)${noneValidated ? '. None validated' : ''}`,
  }),
  not: (path: string): CompositeError => ({ kind: 'composite', message: `${goQuote(path)} must not validate the schema (not)` }),
};

/** Go's %v of the []interface{} enum list (only in the message that is replaced anyway). */
function goList(values: unknown[]): string {
  return `[${values.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ')}]`;
}

/**
 * kubeOpenAPIResultToFieldErrors. `fldPath` null is upstream's nil *field.Path, which the
 * CR strategy passes: root-level and composite errors then print as "<nil>".
 */
export function toFieldErrors(result: Result, fldPath: string | null): FieldError[] {
  const base = fldPath ?? '<nil>';
  return result.errors.map((err): FieldError => {
    if (err.kind === 'composite') return invalid(base, '', err.message);
    const name = err.name.startsWith('.') ? err.name.slice(1) : err.name;
    const field = err.name.length > 0 && err.name !== '.' ? (fldPath ? child(fldPath, name) : name) : base;
    const value = err.value === undefined ? '' : badValue(err.value);
    switch (err.code) {
      case 'required':
        return required(field);
      case 'enum':
        return notSupported(field, badValue(err.value),
          (err.enumValues ?? []).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
      case 'tooLong':
        return { type: 'FieldValueTooLong', field, value, detail: `may not be longer than ${err.limit ?? -1}` };
      case 'maxItems':
      case 'tooManyProperties':
        return { type: 'FieldValueTooMany', field, value: err.value, detail: `must have at most ${err.limit ?? -1} items` };
      case 'invalidType':
        return { type: 'FieldValueTypeInvalid', field, value, detail: err.message };
      default:
        return invalid(field, value, err.message);
    }
  });
}
