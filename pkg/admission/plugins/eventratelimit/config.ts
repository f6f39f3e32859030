// The plugin's configuration: kind Configuration in eventratelimit.admission.k8s.io/v1alpha1,
// a list of limits, each of a type (Server, Namespace, User, SourceAndObject) with its
// token bucket (qps, burst) and, for the keyed types, how many buckets to keep.
import { obj, arr } from '../../../apis/core/types.js';
import { invalid, notSupported } from '../../../apis/validation/field.js';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import { GoLiteral } from '../../../runtime/gofmt.js';

export const limitTypes = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
export type LimitType = typeof limitTypes[number];

export interface Limit {
  type: LimitType;
  qps: number;
  burst: number;
  /** 0: the default size. */
  cacheSize: number;
}

const apiVersion = 'eventratelimit.admission.k8s.io/v1alpha1';

function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** Decodes and validates; every problem is a startup error, as upstream. */
export function eventRateLimitConfig(doc: unknown): Limit[] {
  const top = obj(doc);
  if (doc !== undefined && doc !== null) {
    const version = typeof top?.apiVersion === 'string' ? top.apiVersion : '';
    const kind = typeof top?.kind === 'string' ? top.kind : '';
    if (version !== apiVersion || kind !== 'Configuration') {
      throw new Error(`EventRateLimit: no kind "${kind}" is registered for version "${version}"`);
    }
  }
  const raw = arr(top?.limits);
  const limits = raw.map((l): Limit => ({
    type: (typeof l.type === 'string' ? l.type : '') as LimitType, qps: int(l.qps), burst: int(l.burst), cacheSize: int(l.cacheSize),
  }));
  const errs: FieldError[] = [];
  if (limits.length === 0) {
    const goValue = Array.isArray(top?.limits) ? '[]eventratelimit.Limit{}' : '[]eventratelimit.Limit(nil)';
    errs.push(invalid('limits', new GoLiteral(goValue), 'must not be empty'));
  }
  limits.forEach((l, i) => {
    const p = `limits[${i}]`;
    if (!limitTypes.includes(l.type)) errs.push(notSupported(`${p}.type`, l.type, [...limitTypes]));
    if (l.burst <= 0) errs.push(invalid(`${p}.burst`, l.burst, 'must be positive'));
    if (l.qps <= 0) errs.push(invalid(`${p}.qps`, l.qps, 'must be positive'));
    if (l.type !== 'Server' && l.cacheSize < 0) errs.push(invalid(`${p}.cacheSize`, l.cacheSize, 'must not be negative'));
  });
  if (errs.length > 0) {
    const msgs = [...new Set(errs.map((e) => fieldErrorMessage(e)))];
    throw new Error(msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);
  }
  return limits;
}
