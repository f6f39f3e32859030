// The cluster under test: a 3-member etcd cluster, 3 server replicas using all members,
// and a round-robin TCP load balancer in front of the replicas; all on 127.0.0.1.
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';
import { startReplicas, type Cluster } from '../harness/index.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';

export interface LoadBalancer {
  url: string;
  port: number;
  /** Connections accepted so far, per backend index. */
  counts: number[];
  close(): Promise<void>;
}

/** Round robin per TCP connection; a backend that refuses is skipped for that connection. */
export async function startLoadBalancer(backendPorts: () => number[]): Promise<LoadBalancer> {
  let next = 0;
  const sockets = new Set<Socket>();
  const counts: number[] = backendPorts().map(() => 0);
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.pause();
    const ports = backendPorts();
    const tryBackend = (attempt: number): void => {
      if (attempt >= ports.length) { client.destroy(); return; }
      const i = next++ % ports.length;
      const upstream = connect({ host: '127.0.0.1', port: ports[i]! });
      sockets.add(upstream);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        counts[i] = (counts[i] ?? 0) + 1;
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.once('close', () => { sockets.delete(upstream); if (connected) client.destroy(); });
      upstream.once('error', () => { if (!connected) tryBackend(attempt + 1); });
      client.once('close', () => upstream.destroy());
    };
    client.on('error', () => client.destroy());
    tryBackend(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    counts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

export interface ChaosCluster {
  etcd: TestCluster;
  replicas: Cluster;
  lb: LoadBalancer;
  /** SIGKILL a replica (no graceful shutdown) and wait until it is gone. */
  killReplica(i: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startChaosCluster(opts: { replicas?: number } = {}): Promise<ChaosCluster> {
  const etcd = await startTestCluster(3, { progressNotifyInterval: '1s' });
  let replicas: Cluster | undefined;
  try {
    replicas = await startReplicas(opts.replicas ?? 3, { etcdEndpoint: etcd.endpoints.join(','), etcdPrefix: '/registry' });
    const r = replicas;
    const lb = await startLoadBalancer(() => r.replicas.map((x) => x.port));
    return {
      etcd, replicas: r, lb,
      async killReplica(i) {
        const pid = r.replicas[i]!.pid;
        if (pid !== undefined) {
          try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
        }
        await r.stopReplica(i); // reaps it (SIGTERM to a dead process is harmless)
      },
      async stop() {
        await lb.close();
        await r.stop();
        await etcd.stop();
      },
    };
  } catch (err) {
    await replicas?.stop();
    await etcd.stop();
    throw err;
  }
}
