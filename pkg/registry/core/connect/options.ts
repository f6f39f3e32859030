// Query parameters of connect options (PodLogOptions, PodExecOptions...) as upstream's
// parameter codec converts them: a bool is false only for "0" or "false", an int must parse.
import { errors } from '../../../runtime/errors.js';

export function boolParam(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null) return false;
  return !(v === '0' || v.toLowerCase() === 'false');
}

export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}
