// A CRD conversion webhook for tests, on the admission webhook backend (HTTPS on
// 127.0.0.1, its own CA, every call recorded): it converts a test kind between v1
// (`spec.hostPort: "host:port"`) and v2 (`spec.host` + `spec.port`) of any group, answers
// in the review's own version, and can be told to misbehave in the ways upstream checks.
import { startWebhookServer, type RecordedReview, type WebhookServer } from './webhook-server.js';

export type ConversionFault =
  /** HTTP 500 with a text body. */
  | 'http500'
  /** response.uid is not the request's. */
  | 'badUID'
  /** One converted object fewer than sent. */
  | 'wrongCount'
  /** metadata.name changed. */
  | 'changedName'
  /** result.status Failure with a message. */
  | 'failed'
  /** Objects come back in their original apiVersion. */
  | 'wrongVersion'
  /** Adds a label whose value is not a valid label value. */
  | 'badLabel';

export interface ConversionWebhookOptions {
  /** Extra serving-cert names, e.g. `<svc>.<ns>.svc` for a service reference. */
  dnsNames?: string[];
}

export interface ConversionWebhook {
  server: WebhookServer;
  port: number;
  /** base64 PEM of the server's CA, for clientConfig.caBundle. */
  caBundle: string;
  /** The path it converts on. */
  path: string;
  /** `https://127.0.0.1:<port>/convert`. */
  url: string;
  /** Every ConversionReview received (`review` is the whole body), oldest first. */
  reviews(): RecordedReview[];
  /** Misbehave from now on (undefined: behave). */
  fault: ConversionFault | undefined;
  /** Wait this long before answering. */
  delayMs: number;
  /** Labels added to every converted object (a webhook may change labels). */
  addLabels: Record<string, string>;
  stop(): Promise<void>;
}

const path = '/convert';

export async function startConversionWebhook(opts: ConversionWebhookOptions = {}): Promise<ConversionWebhook> {
  const server = await startWebhookServer({ dnsNames: opts.dnsNames });
  const hook: ConversionWebhook = {
    server, port: server.port, caBundle: server.caBundle, path, url: server.url(path),
    reviews: () => server.requestsTo(path), fault: undefined, delayMs: 0, addLabels: {}, stop: () => server.stop(),
  };
  server.handle(path, (request, recorded) => {
    const fault = hook.fault;
    if (fault === 'http500') return { delayMs: hook.delayMs, raw: { status: 500, body: 'conversion backend exploded\n', contentType: 'text/plain' } };
    const desired = String(request.desiredAPIVersion ?? '');
    let converted = (request.objects as Array<Record<string, any>> ?? []).map((o) => {
      const out = fault === 'wrongVersion' ? structuredClone(o) : convertHostPort(o, desired);
      out.metadata = { ...out.metadata, labels: { ...out.metadata?.labels, ...hook.addLabels } };
      if (fault === 'changedName') out.metadata.name = `${out.metadata.name}-renamed`;
      if (fault === 'badLabel') out.metadata.labels['bad'] = 'not a valid value!';
      return out;
    });
    if (fault === 'wrongCount') converted = converted.slice(0, -1);
    const result = fault === 'failed' ? { status: 'Failure', message: `cannot convert to ${desired}` } : { status: 'Success' };
    const response = { uid: fault === 'badUID' ? 'not-the-request-uid' : request.uid, convertedObjects: converted, result };
    const body = JSON.stringify({ apiVersion: recorded.review.apiVersion, kind: 'ConversionReview', response });
    return { delayMs: hook.delayMs, raw: { status: 200, body } };
  });
  return hook;
}

/** v1 `spec.hostPort` ⇄ v2 `spec.host` + `spec.port`; other fields are kept. */
export function convertHostPort(obj: Record<string, any>, desiredAPIVersion: string): Record<string, any> {
  const out = structuredClone(obj);
  const spec = (out.spec ?? {}) as Record<string, unknown>;
  if (desiredAPIVersion.endsWith('/v2') && typeof spec.hostPort === 'string') {
    const at = spec.hostPort.lastIndexOf(':');
    spec.host = spec.hostPort.slice(0, at);
    spec.port = Number(spec.hostPort.slice(at + 1));
    delete spec.hostPort;
  } else if (desiredAPIVersion.endsWith('/v1') && typeof spec.host === 'string') {
    spec.hostPort = `${spec.host}:${String(spec.port)}`;
    delete spec.host;
    delete spec.port;
  }
  out.apiVersion = desiredAPIVersion;
  return out;
}
