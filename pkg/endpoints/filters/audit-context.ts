// What handlers and filters add to the request's audit event. Each call is a no-op
// when the request is not audited (no policy, or level None), so callers need not check.
import type Koa from 'koa';
import type { RequestAuditRecord } from './audit.js';

function recordOf(ctx: Koa.Context): RequestAuditRecord | undefined {
  return ctx.state.audit as RequestAuditRecord | undefined;
}

export function addAuditAnnotation(ctx: Koa.Context, key: string, value: string): void {
  const r = recordOf(ctx);
  if (r && !(key in r.annotations)) r.annotations[key] = value;
}

/** The audit annotations sink admission writes into (undefined when not audited). */
export function auditAnnotationsOf(ctx: Koa.Context): Record<string, string> | undefined {
  return recordOf(ctx)?.annotations;
}

/** The request body as decoded (an object of the request's kind). */
export function recordRequestObject(ctx: Koa.Context, obj: unknown): void {
  const r = recordOf(ctx);
  if (r) r.requestObject = obj;
}

/** The raw body, decoded only if the level logs it (patches, apply configurations). */
export function recordRawRequestBody(ctx: Koa.Context, raw: Buffer, mediaType: string): void {
  const r = recordOf(ctx);
  if (r && r.requestObject === undefined) r.rawRequest = { raw, mediaType };
}

export function recordResponseObject(ctx: Koa.Context, obj: unknown): void {
  const r = recordOf(ctx);
  if (r) r.responseObject = obj;
}
