// The cluster under test: a 3-member etcd cluster, 3 server replicas using all members,
// and a round-robin TCP load balancer in front of the replicas; all on 127.0.0.1.
import { startReplicas, type Cluster } from '../harness/index.js';
import { startLoadBalancer, type LoadBalancer } from '../../hack/lb/tcp-lb.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';

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
