// Webhook mode: each decision is a SubjectAccessReview POSTed to a remote service
// (authorization.k8s.io v1beta1 by default, or v1), answers cached for the authorized
// and unauthorized TTLs. A failed call is no opinion carrying the error.
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { Logger } from 'pino';
import type { Attributes, Authorizer, Decision, RuleResolver, RulesResult } from '../interfaces.js';
import type { WebhookConnection } from './kubeconfig.js';

export interface WebhookOptions {
  connection: WebhookConnection;
  version: 'v1' | 'v1beta1';
  authorizedTTLMs: number;
  unauthorizedTTLMs: number;
  timeoutMs?: number;
  log?: Logger;
}

interface ReviewStatus { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string }

export class WebhookAuthorizer implements Authorizer, RuleResolver {
  readonly name = 'Webhook';
  private cache = new Map<string, { status: ReviewStatus; expires: number }>();

  constructor(private readonly o: WebhookOptions) {}

  reviewFor(a: Attributes): Record<string, unknown> {
    const spec: Record<string, unknown> = {};
    if (a.isResourceRequest) {
      spec.resourceAttributes = omitEmpty({ namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion,
        resource: a.resource, subresource: a.subresource, name: a.name });
    } else {
      spec.nonResourceAttributes = omitEmpty({ path: a.path, verb: a.verb });
    }
    if (a.user.name) spec.user = a.user.name;
    if (a.user.groups.length) spec[this.o.version === 'v1' ? 'groups' : 'group'] = a.user.groups;
    if (a.user.extra && Object.keys(a.user.extra).length) spec.extra = a.user.extra;
    if (a.user.uid) spec.uid = a.user.uid;
    return { apiVersion: `authorization.k8s.io/${this.o.version}`, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: { allowed: false } };
  }

  async authorize(a: Attributes): Promise<Decision> {
    const review = this.reviewFor(a);
    const key = JSON.stringify(review.spec);
    const now = Date.now();
    let status = this.cache.get(key);
    if (!status || status.expires <= now) {
      let res: ReviewStatus;
      try {
        res = await this.call(review);
      } catch (err) {
        const msg = (err as Error).message;
        this.o.log?.error({ err: msg }, 'Failed to make webhook authorizer request');
        return { decision: 'noOpinion', reason: '', error: msg };
      }
      status = { status: res, expires: now + (res.allowed ? this.o.authorizedTTLMs : this.o.unauthorizedTTLMs) };
      this.cache.set(key, status);
    }
    const s = status.status;
    const reason = s.reason ?? '';
    if (s.denied && s.allowed) return { decision: 'deny', reason, error: 'webhook subject access review returned both allow and deny response' };
    if (s.denied) return { decision: 'deny', reason };
    if (s.allowed) return { decision: 'allow', reason };
    return { decision: 'noOpinion', reason };
  }

  async rulesFor(): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, error: 'webhook authorizer does not support user rule resolution' };
  }

  private call(review: Record<string, unknown>): Promise<ReviewStatus> {
    const c = this.o.connection;
    const url = new URL(c.server);
    const body = JSON.stringify(review);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: 'POST', headers, ca: c.ca, cert: c.cert, key: c.key, rejectUnauthorized: !c.insecure,
        timeout: this.o.timeoutMs ?? 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code >= 300) {
            reject(new Error(`the server responded with the status code ${code} but did not return more information`));
            return;
          }
          try {
            const parsed = JSON.parse(text) as { status?: ReviewStatus };
            resolve(parsed.status ?? {});
          } catch (err) {
            reject(new Error(`failed to decode the webhook response: ${(err as Error).message}`));
          }
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`Post "${c.server}": context deadline exceeded`)));
      req.on('error', (err) => reject(err.message.startsWith('Post "') ? err : new Error(`Post "${c.server}": ${err.message}`)));
      req.end(body);
    });
  }
}

function omitEmpty(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ''));
}
