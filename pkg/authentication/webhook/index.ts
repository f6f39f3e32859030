// --authentication-token-webhook-config-file: each token is sent to a remote service as
// a TokenReview (authentication.k8s.io/v1beta1 by default, v1 by flag) and its status
// decides. The reply must be of the version sent. A failed call is an error (401); a
// refusal carries the remote's status.error when it gave one.
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';
import { intersectAudiences } from '../audiences.js';
import { httpsRequest } from '../httpclient.js';
import type { UserInfo } from '../user.js';
import type { WebhookConnection } from './kubeconfig.js';

export const supportedWebhookVersions = ['v1', 'v1beta1'];

export function validateWebhookVersion(version: string): void {
  if (!supportedWebhookVersions.includes(version)) {
    throw new Error(`unsupported authentication webhook version "${version}", supported versions are "v1", "v1beta1"`);
  }
}

export interface WebhookOptions {
  connection: WebhookConnection;
  version: string;
  /** The API audiences, used when the reply names none. */
  implicitAudiences: string[];
  /** Backoff between retries of transient failures (5xx, 429, reset connections). */
  retry?: { initialMs: number; factor: number; steps: number };
  timeoutMs?: number;
}

interface ReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

class TransientError extends Error {}

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  readonly name = 'webhook';
  private readonly apiVersion: string;

  constructor(private readonly o: WebhookOptions) {
    this.apiVersion = `authentication.k8s.io/${o.version}`;
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<AuthResult> {
    const review = {
      apiVersion: this.apiVersion, kind: 'TokenReview', metadata: { creationTimestamp: null },
      spec: { token, ...(audiences && audiences.length > 0 ? { audiences } : {}) }, status: { user: {} },
    };
    let status: ReviewStatus;
    try {
      status = await this.withRetries(() => this.call(JSON.stringify(review)));
    } catch (err) {
      return { decision: 'error', message: (err as Error).message };
    }
    let auds: string[] | undefined;
    if (audiences !== undefined) {
      const got = status.audiences && status.audiences.length > 0 ? status.audiences : this.o.implicitAudiences;
      auds = intersectAudiences(audiences, got);
      if (auds.length === 0) return { decision: 'noOpinion' };
    }
    if (!status.authenticated) {
      return status.error ? { decision: 'error', message: status.error } : { decision: 'noOpinion' };
    }
    const u = status.user ?? {};
    const user: UserInfo = { name: u.username ?? '', uid: u.uid ?? '', groups: [...(u.groups ?? [])] };
    if (u.extra) user.extra = structuredClone(u.extra);
    return { decision: 'authenticated', user, audiences: auds };
  }

  private async call(body: string): Promise<ReviewStatus> {
    const c = this.o.connection;
    let res;
    try {
      res = await httpsRequest(c.server, { ...c, method: 'POST', body, timeoutMs: this.o.timeoutMs ?? 30_000 });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const msg = `Post "${c.server}": ${e.message}`;
      throw e.code === 'ECONNRESET' ? new TransientError(msg) : new Error(msg);
    }
    if (res.status >= 500 || res.status === 429) throw new TransientError(remoteError(res.status, res.body));
    if (res.status < 200 || res.status > 299) throw new Error(remoteError(res.status, res.body));
    let reply: { apiVersion?: unknown; kind?: unknown; status?: ReviewStatus };
    try {
      reply = JSON.parse(res.body) as typeof reply;
    } catch (err) {
      throw new Error(`unable to decode the webhook's TokenReview: ${(err as Error).message}`);
    }
    if (reply.apiVersion !== this.apiVersion || reply.kind !== 'TokenReview') {
      throw new Error(`the webhook answered with ${String(reply.apiVersion)}, Kind=${String(reply.kind)}; expected ${this.apiVersion}, Kind=TokenReview`);
    }
    return reply.status ?? {};
  }

  private async withRetries<T>(fn: () => Promise<T>): Promise<T> {
    const r = this.o.retry ?? { initialMs: 500, factor: 1.5, steps: 5 };
    let delay = r.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof TransientError) || attempt >= r.steps) throw err;
        await new Promise((res) => setTimeout(res, delay * (1 + Math.random() * 0.2)));
        delay *= r.factor;
      }
    }
  }
}

/** The remote's Status message when it sent one, else client-go's generic text. */
function remoteError(code: number, body: string): string {
  try {
    const s = JSON.parse(body) as { kind?: string; message?: string };
    if (s.kind === 'Status' && s.message) return s.message;
  } catch {
    // not JSON
  }
  return `the server responded with the status code ${code} but did not return more information`;
}
