// A round-robin TCP load balancer for local clusters (hack/local-up-cluster.sh, the chaos
// suite, benchmarks): one listen port spreading connections over the replicas. It passes
// TLS through untouched, so clients authenticate to the replica itself.
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';

export interface LoadBalancer {
  url: string;
  port: number;
  /** Connections accepted so far, per backend index. */
  counts: number[];
  close(): Promise<void>;
}

export interface LoadBalancerOptions {
  /** Listen port; 0 (default) picks a free one. */
  port?: number;
  /** Called once a connection is paired with a backend (its index and port). */
  onConnect?: (backend: number, port: number) => void;
}

/**
 * Round robin per TCP connection. A backend that refuses (a killed replica) is skipped for
 * that connection, so a client that reconnects after losing its replica lands on a live one.
 */
export async function startLoadBalancer(backendPorts: () => number[], opts: LoadBalancerOptions = {}): Promise<LoadBalancer> {
  let next = 0;
  const sockets = new Set<Socket>();
  const counts: number[] = backendPorts().map(() => 0);
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.pause();
    // Latency figures through the balancer should not include Nagle's delay.
    client.setNoDelay(true);
    const ports = backendPorts();
    const tryBackend = (attempt: number): void => {
      if (attempt >= ports.length) { client.destroy(); return; }
      const i = next++ % ports.length;
      const upstream = connect({ host: '127.0.0.1', port: ports[i]! });
      upstream.setNoDelay(true);
      sockets.add(upstream);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        counts[i] = (counts[i] ?? 0) + 1;
        opts.onConnect?.(i, ports[i]!);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      // A backend that ends its connection cleanly (Connection: close) has its last bytes
      // flushed by the pipe; only a reset is passed on as one.
      upstream.once('close', (hadError) => { sockets.delete(upstream); if (connected && hadError) client.destroy(); });
      upstream.once('error', () => { if (!connected) tryBackend(attempt + 1); });
      client.once('close', () => upstream.destroy());
    };
    client.on('error', () => client.destroy());
    tryBackend(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
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
