// Audit filters. auditInit runs first for every request: the Audit-ID (the client's, or
// a new one) is echoed in the response and the receive time taken. The audit filter runs
// after authentication, as upstream's WithAudit: it asks the policy for the level, emits
// RequestReceived, then ResponseStarted (long-running requests, once the head is sent)
// and ResponseComplete. Requests that fail authentication are audited by the outer
// failedAuthentication filter, at ResponseStarted, as upstream does.
import type Koa from 'koa';
import type { Auditor } from '../../audit/auditor.js';
import { microTimeAt, nowMicro, type AuditEvent, type AuditUser, type ResponseStatus } from '../../audit/event.js';
import type { RequestAuditConfig, Stage } from '../../audit/policy.js';
import type { UserInfo } from '../../authentication/user.js';
import { StatusError } from '../../runtime/errors.js';
import { decodeBody } from '../negotiation/body.js';
import type { RequestInfo } from '../request/info.js';
import { isLongRunning } from '../request/long-running.js';
import { connectionSocket } from '../../util/net/connection.js';
import { attributesFor } from '../request/attributes.js';
import { flatRandomUUID } from '../../util/flat-uuid.js';
import { whenResponseClosedWith } from '../responsewriters/sent.js';

export interface RequestAuditRecord {
  annotations: Record<string, string>;
  requestObject?: unknown;
  rawRequest?: { raw: Buffer; mediaType: string };
  responseObject?: unknown;
}

export function auditInitFilter(): Koa.Middleware {
  return (ctx, next) => {
    const id = ctx.get('Audit-ID') || flatRandomUUID();
    ctx.state.auditID = id;
    // Kept as a clock reading: most requests write no audit event, so most never format it.
    ctx.state.receivedAt = process.hrtime.bigint();
    ctx.set('Audit-ID', id);
    return next();
  };
}

export function auditFilter(auditor: Auditor | undefined): Koa.Middleware {
  if (!auditor) return (_ctx, next) => next();
  return async (ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo;
    const requestor = ctx.state.user as UserInfo;
    const cfg = auditor.configFor(attributesFor(requestor, info));
    if (cfg.level === 'None') return next();
    const record: RequestAuditRecord = { annotations: {} };
    ctx.state.audit = record;
    const ev = newEvent(ctx, info, cfg, toAuditUser(requestor));
    const emit = (stage: Stage) => (cfg.omitStages.has(stage) ? Promise.resolve()
      : auditor.emit(finish(ctx.state.user as UserInfo | undefined, ev, record, cfg, stage, requestor)));
    await emit('RequestReceived');

    let failure: unknown;
    try {
      await next();
    } catch (err) {
      failure = err;
    }
    setResponseStatus(ev, ctx, failure, cfg);
    const streaming = !failure && ctx.body !== null && typeof (ctx.body as { pipe?: unknown })?.pipe === 'function';
    if (streaming && isLongRunning(info)) {
      await emit('ResponseStarted');
      // What ResponseComplete reads, taken now: a closure over the context would keep the
      // request's context, Koa's request and response and the state for the watch's life.
      const pending: PendingCompletion = { auditor, ev, record, cfg, requestor, current: ctx.state.user as UserInfo | undefined };
      whenResponseClosedWith(ctx.res, completeLongRunning, pending);
    } else {
      await emit('ResponseComplete');
    }
    if (failure) throw failure;
  };
}

interface PendingCompletion {
  auditor: Auditor; ev: AuditEvent; record: RequestAuditRecord; cfg: RequestAuditConfig;
  requestor: UserInfo; current: UserInfo | undefined;
}

/** The ResponseComplete stage of a long-running request, when its response closes. */
function completeLongRunning(p: PendingCompletion): void {
  if (p.cfg.omitStages.has('ResponseComplete')) return;
  void p.auditor.emit(finish(p.current, p.ev, p.record, p.cfg, 'ResponseComplete', p.requestor));
}

/** Upstream audits a request whose credentials fail at ResponseStarted with a 401. */
export function failedAuthenticationAuditFilter(auditor: Auditor | undefined): Koa.Middleware {
  if (!auditor) return (_ctx, next) => next();
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (ctx.state.user === undefined && err instanceof StatusError && err.code === 401) {
        const info = ctx.state.requestInfo as RequestInfo;
        const cfg = auditor.configFor(attributesFor({ name: '', groups: [] }, info));
        if (cfg.level !== 'None' && !cfg.omitStages.has('ResponseStarted')) {
          const ev = newEvent(ctx, info, cfg, { username: '' });
          ev.stage = 'ResponseStarted';
          ev.stageTimestamp = nowMicro();
          ev.responseStatus = { metadata: {}, message: authMethods(ctx), code: 401 };
          await auditor.emit(ev);
        }
      }
      throw err;
    }
  };
}

function authMethods(ctx: Koa.Context): string {
  const tried: string[] = [];
  const auth = ctx.get('Authorization').toLowerCase();
  if (auth.startsWith('basic ')) tried.push('basic');
  if (auth.startsWith('bearer ')) tried.push('bearer');
  const socket = connectionSocket(ctx.req) as { getPeerCertificate?: () => object };
  if (Object.keys(socket.getPeerCertificate?.() ?? {}).length > 0) tried.push('x509');
  return tried.length > 0 ? `Authentication failed, attempted: ${tried.join(', ')}` : 'Authentication failed, no credentials provided';
}

function toAuditUser(u: UserInfo): AuditUser {
  const out: AuditUser = { username: u.name };
  if (u.uid) out.uid = u.uid;
  if (u.groups?.length) out.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length > 0) out.extra = u.extra;
  return out;
}

/** utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the peer, without repeats. */
function sourceIPs(ctx: Koa.Context): string[] {
  const ips: string[] = [];
  const add = (ip: string | undefined) => { const t = ip?.trim(); if (t && !ips.includes(t)) ips.push(t); };
  for (const part of (ctx.get('X-Forwarded-For') || '').split(',')) add(part);
  add(ctx.get('X-Real-Ip'));
  add(connectionSocket(ctx.req).remoteAddress?.replace(/^::ffff:/, ''));
  return ips;
}

function newEvent(ctx: Koa.Context, info: RequestInfo, cfg: RequestAuditConfig, user: AuditUser): AuditEvent {
  const ev: AuditEvent = {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: cfg.level, auditID: ctx.state.auditID as string,
    stage: 'RequestReceived', requestURI: ctx.originalUrl, verb: info.verb, user, sourceIPs: sourceIPs(ctx),
    userAgent: ctx.get('User-Agent') || undefined,
    requestReceivedTimestamp: typeof ctx.state.receivedAt === 'bigint' ? microTimeAt(ctx.state.receivedAt) : nowMicro(), stageTimestamp: '',
  };
  if (info.isResourceRequest) {
    ev.objectRef = {
      resource: info.resource || undefined, namespace: info.namespace || undefined, name: info.name || undefined,
      apiGroup: info.apiGroup || undefined, apiVersion: info.apiVersion || undefined, subresource: info.subresource || undefined,
    };
  }
  return ev;
}

function setResponseStatus(ev: AuditEvent, ctx: Koa.Context, failure: unknown, cfg: RequestAuditConfig): void {
  if (failure instanceof StatusError) {
    const s = failure.toStatus() as unknown as Record<string, unknown>;
    const rs: ResponseStatus = { metadata: {}, status: s.status as string, message: s.message as string, code: failure.code };
    if (s.reason) rs.reason = s.reason as string;
    if (s.details) rs.details = s.details;
    ev.responseStatus = rs;
    if (cfg.level === 'RequestResponse') ev.responseObject = s;
    return;
  }
  ev.responseStatus = { metadata: {}, code: failure ? 500 : ctx.status };
}

const webhookPatchAnnotation = 'patch.webhook.admission.k8s.io/';

/** The event at one stage: a copy, so later stages do not change what was emitted. */
function finish(current: UserInfo | undefined, ev: AuditEvent, r: RequestAuditRecord, cfg: RequestAuditConfig,
  stage: Stage, requestor: UserInfo): AuditEvent {
  const out: AuditEvent = { ...ev, stage, stageTimestamp: nowMicro() };
  if (stage === 'RequestReceived') {
    delete out.responseStatus;
    return out;
  }
  if (current && current !== requestor) out.impersonatedUser = toAuditUser(current);
  // Webhook patches hold object content: upstream records them only from level Request.
  const keep = cfg.level === 'Metadata' ? Object.entries(r.annotations).filter(([k]) => !k.startsWith(webhookPatchAnnotation))
    : Object.entries(r.annotations);
  if (keep.length > 0) out.annotations = Object.fromEntries(keep);
  const requestObject = r.requestObject ?? decodeRaw(r.rawRequest);
  if (requestObject && out.objectRef) out.objectRef = { ...out.objectRef, ...refFrom(requestObject, out.objectRef) };
  if (cfg.level === 'Request' || cfg.level === 'RequestResponse') {
    if (requestObject !== undefined) out.requestObject = trimmed(requestObject, cfg.omitManagedFields);
  }
  if (cfg.level === 'RequestResponse' && r.responseObject !== undefined && out.responseObject === undefined) {
    out.responseObject = trimmed(r.responseObject, cfg.omitManagedFields);
  }
  return out;
}

function decodeRaw(raw: RequestAuditRecord['rawRequest']): unknown {
  if (!raw || raw.raw.length === 0) return undefined;
  try {
    return decodeBody(raw.raw, raw.mediaType.includes('yaml') ? 'application/yaml' : raw.mediaType.includes('protobuf') ? raw.mediaType : 'application/json');
  } catch {
    return undefined;
  }
}

/** LogRequestObject completes the reference from the object's metadata where unset. */
function refFrom(obj: unknown, ref: NonNullable<AuditEvent['objectRef']>): Partial<NonNullable<AuditEvent['objectRef']>> {
  const meta = (obj as { metadata?: Record<string, unknown> })?.metadata;
  if (!meta || typeof meta !== 'object') return {};
  const pick = (have: string | undefined, v: unknown) => (have ?? (typeof v === 'string' && v !== '' ? v : undefined));
  return {
    namespace: pick(ref.namespace, meta.namespace), name: pick(ref.name, meta.name),
    uid: pick(ref.uid, meta.uid), resourceVersion: pick(ref.resourceVersion, meta.resourceVersion),
  };
}

function trimmed(obj: unknown, omitManagedFields: boolean): unknown {
  if (!omitManagedFields || !obj || typeof obj !== 'object') return obj;
  const strip = (o: Record<string, unknown>) => {
    const meta = o.metadata as Record<string, unknown> | undefined;
    if (!meta || !('managedFields' in meta)) return o;
    const { managedFields: _m, ...rest } = meta;
    return { ...o, metadata: rest };
  };
  const o = strip(obj as Record<string, unknown>);
  return Array.isArray(o.items) ? { ...o, items: (o.items as Array<Record<string, unknown>>).map(strip) } : o;
}
