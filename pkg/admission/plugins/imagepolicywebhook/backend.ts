// The HTTPS exchange with the image policy backend named by the kubeconfig file: POST the
// review, read back its status. Failures carry the message client-go would give and
// whether upstream's webhook retry would try again (connection reset, 429, 500, 504, or
// a Retry-After on a 5xx).
import { loadWebhookKubeconfig } from '../../../authentication/webhook/kubeconfig.js';
import { httpsRequest } from '../../../authentication/httpclient.js';
import { isPlainObject } from '../../../runtime/object.js';
import { BackendError, type ImageReviewStatus, type ReviewBackend } from './index.js';

const retriableStatus = new Set([429, 500, 504]);

export function httpsReviewBackend(kubeConfigFile: string): ReviewBackend {
  if (!kubeConfigFile) throw new Error('ImagePolicyWebhook: imagePolicy.kubeConfigFile is required');
  const conn = loadWebhookKubeconfig(kubeConfigFile);
  if (!conn.server.startsWith('https://')) {
    throw new Error(`ImagePolicyWebhook: the backend ${conn.server} in ${kubeConfigFile} must use https`);
  }
  return async (review) => {
    let res;
    try {
      res = await httpsRequest(conn.server, { ...conn, method: 'POST', body: JSON.stringify(review) });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
      const cause = e.code === 'ECONNREFUSED' ? `dial tcp ${e.address}:${e.port}: connect: connection refused` : e.message;
      throw new BackendError(`Post "${conn.server}": ${cause}`, e.code === 'ECONNRESET');
    }
    if (res.status < 200 || res.status > 299) {
      // A server that says when to come back is asked again, as client-go's SuggestsClientDelay.
      const retryAfter = (res.status === 429 || res.status >= 500) && res.headers?.['retry-after'] !== undefined;
      throw new BackendError(statusMessage(res.status, res.body), retriableStatus.has(res.status) || retryAfter);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch (err) {
      throw new BackendError((err as Error).message, false);
    }
    const status = isPlainObject(parsed) && isPlainObject(parsed.status) ? parsed.status : {};
    const out: ImageReviewStatus = { allowed: status.allowed === true };
    if (typeof status.reason === 'string') out.reason = status.reason;
    if (isPlainObject(status.auditAnnotations)) {
      out.auditAnnotations = Object.fromEntries(Object.entries(status.auditAnnotations).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    }
    return out;
  };
}

/** client-go's error for a non-2xx answer: the Status' message, else a generic text by code. */
function statusMessage(code: number, body: string): string {
  try {
    const s = JSON.parse(body) as { kind?: string; message?: string };
    if (s?.kind === 'Status' && s.message) return s.message;
  } catch { /* not a Status */ }
  if (code === 500) return `an error on the server (${JSON.stringify(body.trim())}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}
