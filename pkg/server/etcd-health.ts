// Upstream's etcd health checks, one pair per etcd cluster: `etcd` (healthz, livez,
// readyz, --etcd-healthcheck-timeout) and `etcd-readiness` (readyz, --etcd-readycheck-timeout),
// `etcd-override-<i>` and `etcd-override-readiness-<i>` for --etcd-servers-overrides (as
// upstream names them since it checks overrides). Each reads the key `<prefix>/health`,
// as upstream does. The failure names the TLS handshake failures seen on the cluster's
// members: etcd3 itself reports only UNAVAILABLE or an open circuit breaker.
import { namedCheck, type HealthCheck } from './healthz/index.js';
import type { EtcdCluster } from './storage.js';
import { healthKey } from '../storage/etcd/keys.js';

export interface EtcdHealthChecks {
  health: HealthCheck[];
  ready: HealthCheck[];
}

export function etcdHealthChecks(clusters: EtcdCluster[], etcdPrefix: string, timeouts: { healthMs: number; readyMs: number }): EtcdHealthChecks {
  const key = healthKey(etcdPrefix);
  const probe = (c: EtcdCluster, ms: number) => async () => {
    try {
      await withTimeout(c.connection.client.get(key).exec(), ms);
    } catch (err) {
      const tls = c.connection.handshakes.describe();
      // grpc's message may span lines (OpenSSL's); a health check's reason is one line.
      const message = (err as Error).message.replace(/\s*\n\s*/g, ' ').trim();
      throw new Error(`error getting data from etcd: ${message}${tls ? `; ${tls}` : ''}`);
    }
  };
  return {
    health: clusters.map((c) => namedCheck(c.checkName, probe(c, timeouts.healthMs))),
    ready: clusters.map((c) => namedCheck(c.readyCheckName, probe(c, timeouts.readyMs))),
  };
}

/**
 * `p`, or a deadline error after `ms`. A busy event loop runs expired timers before it
 * reads the sockets, so etcd's answer, in time but not yet read, would lose to the timer:
 * the deadline is called only after one more turn of I/O (setImmediate runs after it).
 * On a starved 2-core machine readyz failed on etcd that way.
 */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => setImmediate(() => reject(new Error('context deadline exceeded'))), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}
