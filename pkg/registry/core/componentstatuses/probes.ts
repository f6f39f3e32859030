// The health checks behind componentstatuses, as upstream v1.28 runs them: one etcd
// client check per storage backend (a read of the key <prefix>/health, as the readyz
// checks read: upstream's prober since it stopped asking etcd's HTTP /health), and HTTPS GETs of the
// scheduler's and controller manager's /healthz on their default local ports. A check
// that cannot connect is a failed probe whose message is the Go client's error text.
import { request } from 'node:https';
import { createEtcdClient } from '../../../storage/etcd/client.js';
import type { EtcdTLSFiles } from '../../../storage/etcd/tls/files.js';
import { healthKey } from '../../../storage/etcd/keys.js';

export const probeTimeoutMs = 20_000;

/** Upstream's probe.Result, as the condition status it becomes. */
export type ProbeStatus = 'True' | 'False' | 'Unknown';
export interface ProbeResult { status: ProbeStatus; message: string; error: string }

/**
 * Healthy when any of `endpoints` answers, as upstream's Go client balances its calls over
 * the members it could connect to (a dead URL beside a live one does not fail the check).
 * One client per URL: etcd3's, given both, may send the read to the dead one and fail.
 * When none answers, the first URL's failure is the result.
 */
export async function probeEtcd(endpoints: string[], etcdPrefix: string, timeoutMs = probeTimeoutMs, tls: EtcdTLSFiles = {}): Promise<ProbeResult> {
  if (endpoints.length < 2) return probeEtcdMembers(endpoints, etcdPrefix, timeoutMs, tls);
  const probes = endpoints.map((ep) => probeEtcdMembers([ep], etcdPrefix, timeoutMs, tls));
  const healthy = probes.map((p) => p.then((r) => (r.status === 'True' ? r : Promise.reject(r))));
  return Promise.any(healthy).catch(() => probes[0]!);
}

async function probeEtcdMembers(endpoints: string[], etcdPrefix: string, timeoutMs: number, tls: EtcdTLSFiles): Promise<ProbeResult> {
  let client;
  try {
    client = createEtcdClient({ endpoints, tls, options: { dialTimeout: timeoutMs } }, { warn: () => undefined, info: () => undefined }).client;
  } catch (err) {
    return { status: 'False', message: '', error: `error getting data from etcd: ${(err as Error).message}` };
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('context deadline exceeded')), timeoutMs); });
    await Promise.race([client.get(healthKey(etcdPrefix)).string(), deadline]);
    return { status: 'True', message: 'ok', error: '' };
  } catch (err) {
    return { status: 'False', message: '', error: `error getting data from etcd: ${(err as Error).message}` };
  } finally {
    clearTimeout(timer);
    client.close();
  }
}

/** Go's net/http error text for the failures a local probe meets. */
function goDialError(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${host}:${port}: connect: connection refused`;
    case 'ECONNRESET': return 'read: connection reset by peer';
    case 'ETIMEDOUT': return 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
    default: return err.message;
  }
}

const maxBody = 10 * 1024;

/** An HTTPS probe that skips certificate verification (upstream's InsecureSkipVerify). */
export function probeHTTPS(host: string, port: number, path: string, timeoutMs = probeTimeoutMs): Promise<ProbeResult> {
  const url = `https://${host}:${port}${path}`;
  return new Promise((resolve) => {
    const req = request({ host, port, path, method: 'GET', rejectUnauthorized: false, timeout: timeoutMs,
      headers: { 'User-Agent': 'kube-probe/1.28', Accept: '*/*' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => { if (size < maxBody) { chunks.push(c); size += c.length; } });
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).subarray(0, maxBody).toString('utf8');
        if (code >= 200 && code < 400) resolve({ status: 'True', message: body, error: '' });
        else resolve({ status: 'False', message: `HTTP probe failed with statuscode: ${code}`, error: '' });
      });
      res.on('error', (err) => resolve({ status: 'False', message: `Get ${JSON.stringify(url)}: ${err.message}`, error: '' }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 'False', message: `Get ${JSON.stringify(url)}: ${goDialError(err, host, port)}`, error: '' }));
    req.end();
  });
}
