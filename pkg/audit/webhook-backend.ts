// --audit-webhook-config-file: events POSTed as an audit.k8s.io/v1 EventList to the
// kubeconfig's server. A failed send is retried with upstream's backoff (starting at
// --audit-webhook-initial-backoff, x1.5 with jitter, 5 attempts) before it is dropped
// and counted.
import { loadWebhookKubeconfig, type WebhookConnection } from '../authentication/webhook/kubeconfig.js';
import { httpsRequest } from '../authentication/httpclient.js';
import type { Backend } from './backend.js';
import type { AuditEvent } from './event.js';
import { goJson } from '../runtime/serializer/json/go-escapes.js';
import type { AuditMetrics } from './metrics.js';

const attempts = 5;

export class WebhookBackend implements Backend {
  private readonly conn: WebhookConnection;

  constructor(configFile: string, private readonly initialBackoffMs: number, private readonly metrics: AuditMetrics) {
    this.conn = loadWebhookKubeconfig(configFile);
  }

  async process(events: AuditEvent[]): Promise<void> {
    const body = goJson({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: events });
    let delay = this.initialBackoffMs;
    for (let i = 1; ; i++) {
      try {
        const res = await httpsRequest(this.conn.server, { ...this.conn, method: 'POST', body });
        if (res.status >= 200 && res.status < 300) {
          this.metrics.events.inc(events.length);
          return;
        }
        throw new Error(`the server responded with the status code ${res.status} (${res.statusText}): ${res.body.slice(0, 200)}`);
      } catch (err) {
        if (i >= attempts) {
          this.metrics.errors.inc({ plugin: 'webhook' }, events.length);
          throw err;
        }
        await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * 0.2)).unref());
        delay *= 1.5;
      }
    }
  }

  async shutdown(): Promise<void> { /* nothing held open: each send uses its own connection */ }
}
