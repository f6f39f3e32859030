// Query parameters shared by several verbs, validated as upstream validates
// CreateOptions / UpdateOptions / ListOptions.
import { errors, StatusError } from '../../runtime/errors.js';
import type { ResourceVersionMatch } from '../../storage/interfaces.js';

/** `dryRun` accepts only "All" (repeatable); anything else is 422 as upstream. */
export function parseDryRun(query: URLSearchParams, optionsKind: string): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  const bad = values.filter((v) => v !== 'All');
  if (bad.length > 0) {
    throw errors.invalid('meta.k8s.io', optionsKind, '', [{
      type: 'FieldValueNotSupported', field: 'dryRun', value: values, detail: 'supported values: "All"',
    }]);
  }
  return true;
}

export function parseBool(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  if (v === null) return false;
  if (v === '' || v === '1' || v.toLowerCase() === 'true') return true;
  if (v === '0' || v.toLowerCase() === 'false') return false;
  throw errors.badRequest(`${name}: invalid value "${v}": expected a boolean`);
}

export function parseNonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw errors.badRequest(`${name}: invalid value "${v}": expected an integer`);
  return Number(v);
}

export interface ListQuery {
  labelSelector: string;
  fieldSelector: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
}

export function parseListQuery(query: URLSearchParams): ListQuery {
  const rvm = query.get('resourceVersionMatch') ?? '';
  if (rvm !== '' && rvm !== 'NotOlderThan' && rvm !== 'Exact') {
    throw errors.invalid('meta.k8s.io', 'ListOptions', '', [{
      type: 'FieldValueNotSupported', field: 'resourceVersionMatch', value: rvm,
      detail: 'supported values: "Exact", "NotOlderThan", ""',
    }]);
  }
  const limit = parseNonNegativeInt(query, 'limit');
  const sie = query.get('sendInitialEvents');
  return {
    labelSelector: query.get('labelSelector') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    continue: query.get('continue') || undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: rvm as ResourceVersionMatch,
    timeoutSeconds: parseNonNegativeInt(query, 'timeoutSeconds'),
    allowWatchBookmarks: parseBool(query, 'allowWatchBookmarks'),
    sendInitialEvents: sie === null ? undefined : parseBool(query, 'sendInitialEvents'),
  };
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}
