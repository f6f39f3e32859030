// Every failure on the request path is a StatusError. It is built by one of the typed
// constructors below and turned into an HTTP response in exactly one place
// (pkg/endpoints/filters/errors.ts), so no handler ever hand-builds a Status.

import { goValue } from './gofmt.js';

export type StatusReason =
  | 'BadRequest' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'AlreadyExists'
  | 'Conflict' | 'Gone' | 'Invalid' | 'ServerTimeout' | 'Timeout' | 'TooManyRequests'
  | 'MethodNotAllowed' | 'NotAcceptable' | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType' | 'InternalError' | 'Expired' | 'ServiceUnavailable' | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** Identifies a resource in messages: `configmaps`, `roles.rbac.authorization.k8s.io`. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'StatusError';
  }

  toStatus(): Status {
    // Members in metav1.Status's order, code last, as Go's encoder writes them.
    const s = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
    } as Status;
    if (this.reason) s.reason = this.reason;
    // Go omits empty fields (omitempty), so "group": "" never appears on the wire; the
    // details object itself is a pointer there, written whenever the error set it, so
    // details with nothing in them are `"details":{}` (NewGenericServerResponse's).
    if (this.details) {
      s.details = Object.fromEntries(Object.entries(this.details)
        .filter(([, v]) => v !== undefined && v !== '')) as StatusDetails;
    }
    s.code = this.code;
    return s;
  }
}

/** A field-level validation failure; collected into Invalid errors. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The offending value, quoted into the message as upstream does. */
  value?: unknown;
  detail?: string;
}

export type FieldErrorType =
  | 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported'
  | 'FieldValueForbidden' | 'FieldValueDuplicate' | 'FieldValueTooLong'
  | 'FieldValueTooMany' | 'FieldValueNotFound' | 'FieldValueTypeInvalid' | 'InternalError';

const fieldErrorWords: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueNotFound: 'Not found',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Renders a field error the way upstream's field.Error.Error() does. */
export function fieldErrorMessage(e: FieldError, withField = true): string {
  const words = fieldErrorWords[e.type];
  const parts: string[] = [];
  const showValue = e.type === 'FieldValueInvalid' || e.type === 'FieldValueNotSupported'
    || e.type === 'FieldValueDuplicate' || e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueNotFound' || e.type === 'FieldValueTooMany';
  let body = words;
  if (showValue && e.value !== undefined) body += `: ${goValue(e.value)}`;
  if (e.detail) body += `: ${e.detail}`;
  parts.push(body);
  return withField ? `${e.field}: ${parts.join('')}` : parts.join('');
}


export const errors = {
  notFound(gr: GroupResource, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`,
      { name, group: gr.group, kind: gr.resource });
  },
  alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`,
      { name, group: gr.group, kind: gr.resource });
  },
  conflict(gr: GroupResource, name: string, why: string): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
      { name, group: gr.group, kind: gr.resource });
  },
  /** `kind` here is the Kind (e.g. "ConfigMap"), as upstream's NewInvalid takes a GroupKind. */
  invalid(group: string, kind: string, name: string, fieldErrors: FieldError[]): StatusError {
    const qualifiedKind = group ? `${kind}.${group}` : kind;
    const causes: StatusCause[] = fieldErrors.map((e) => ({
      reason: e.type, message: fieldErrorMessage(e, false), field: e.field,
    }));
    // Upstream aggregates unique messages only.
    const list = [...new Set(fieldErrors.map((e) => fieldErrorMessage(e)))];
    const agg = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
    return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${agg}`,
      { name, group, kind, causes });
  },
  badRequest(message: string, causes?: StatusCause[]): StatusError {
    return new StatusError(400, 'BadRequest', message, causes ? { causes } : undefined);
  },
  unauthorized(message = 'Unauthorized'): StatusError {
    return new StatusError(401, 'Unauthorized', message);
  },
  forbidden(gr: GroupResource, name: string, why: string): StatusError {
    const what = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
    return new StatusError(403, 'Forbidden', `${what} is forbidden: ${why}`,
      { name: name || undefined, group: gr.group, kind: gr.resource });
  },
  forbiddenMessage(message: string, details?: StatusDetails): StatusError {
    return new StatusError(403, 'Forbidden', message, details);
  },
  methodNotAllowed(gr: GroupResource, action: string): StatusError {
    return new StatusError(405, 'MethodNotAllowed',
      `${action} is not supported on resources of kind "${qualifiedResource(gr)}"`,
      { group: gr.group, kind: gr.resource });
  },
  notAcceptable(message: string): StatusError {
    return new StatusError(406, 'NotAcceptable', message);
  },
  unsupportedMediaType(acceptedTypes: string): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${acceptedTypes}`);
  },
  requestEntityTooLarge(message = 'the server has received a request that is too large'): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', message);
  },
  gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  },
  resourceExpired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  },
  /** NewTimeoutError: its details are always set, so `"details":{}` without a retry. */
  timeout(message: string, retryAfterSeconds?: number): StatusError {
    const headers: Record<string, string> = retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {};
    return new StatusError(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds: retryAfterSeconds || undefined }, headers);
  },
  /** A read at a revision storage has not reached in time (upstream's NewTooLargeResourceVersionError). */
  tooLargeResourceVersion(message: string): StatusError {
    return new StatusError(504, 'Timeout', `Timeout: ${message}`,
      { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      { 'Retry-After': '1' });
  },
  tooManyRequests(message: string, retryAfterSeconds = 1): StatusError {
    return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) });
  },
  serviceUnavailable(message: string, retryAfterSeconds?: number): StatusError {
    if (!retryAfterSeconds) return new StatusError(503, 'ServiceUnavailable', message);
    return new StatusError(503, 'ServiceUnavailable', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  },
  internal(err: unknown): StatusError {
    const msg = err instanceof Error ? err.message : String(err);
    return new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`,
      { causes: [{ message: msg }] });
  },
};

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}
