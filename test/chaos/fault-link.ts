// A byte relay standing in for a network link, for the chaos suite: it listens on a TCP
// port of 127.0.0.1 or on a Unix socket and connects each accepted connection to another
// (TCP port or Unix socket), and can make the link slow, lossy or cut.
//
// The faults act on the byte stream the way the network's act on a TCP connection, since
// that is what the processes at both ends can observe: delay holds each chunk back (order
// kept); loss of a packet shows as a retransmission stall, so a "lost" chunk (and what
// queues behind it) is held for a retransmission timeout, and a "lost" connection attempt
// waits a SYN retransmission; a partition holds everything, new connections included,
// until it heals, when the held bytes flow again (TCP retransmits what a short partition
// ate). No byte is dropped and no connection is reset, which a real partition does not do
// either. Without faults the relay is plain, as used by the bridge in a namespace.
import { connect, createServer, type Server, type Socket } from 'node:net';

/** Where a link listens or connects: a TCP port of 127.0.0.1, or a Unix socket path. */
export type Endpoint = { port: number } | { path: string };

export interface LinkFaults {
  /** Extra delay per chunk toward the target, drawn in [min, max] ms. */
  delayMs?: [number, number];
  /** Probability that a chunk (either way) or a connection attempt is "lost". */
  loss?: number;
  /** Cut: nothing passes either way until cleared. */
  partitioned?: boolean;
}

export interface FaultLink {
  readonly listen: Endpoint;
  set(faults: LinkFaults): void;
  close(): Promise<void>;
}

/** Linux's minimum retransmission timeout, and the first SYN retransmission. */
const rtoMs = 200;
const synRetryMs = 1000;

export function describeEndpoint(e: Endpoint): string {
  return 'port' in e ? `127.0.0.1:${e.port}` : `unix:${e.path}`;
}

/** One direction of a connection: chunks released in order at their due time, unless cut. */
class Pipe {
  private queue: Array<{ due: number; chunk: Buffer }> = [];
  private timer: NodeJS.Timeout | undefined;
  private lastDue = 0;
  private ended = false;

  constructor(private readonly to: Socket, private readonly faults: () => LinkFaults, private readonly delayed: boolean) {}

  push(chunk: Buffer): void {
    const f = this.faults();
    let hold = 0;
    if (this.delayed && f.delayMs) hold += f.delayMs[0] + Math.random() * (f.delayMs[1] - f.delayMs[0]);
    if (f.loss && Math.random() < f.loss) hold += rtoMs;
    this.lastDue = Math.max(this.lastDue, performance.now() + hold);
    this.queue.push({ due: this.lastDue, chunk });
    this.pump();
  }

  end(): void {
    this.ended = true;
    this.pump();
  }

  /** Releases what is due; re-arms for the rest. Also called when the faults change. */
  pump(): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    if (this.to.destroyed) return;
    if (this.faults().partitioned) return;
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0]!.due <= now) this.to.write(this.queue.shift()!.chunk);
    if (this.queue.length > 0) this.timer = setTimeout(() => this.pump(), this.queue[0]!.due - now);
    else if (this.ended) this.to.end();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.queue = [];
  }
}

/** Starts a link from `listen` to `target`; `faults` applies to every connection, current and new. */
export async function startFaultLink(listen: Endpoint, target: Endpoint): Promise<FaultLink> {
  let faults: LinkFaults = {};
  const live = new Set<{ sockets: Socket[]; pipes: Pipe[]; start?: () => void }>();
  // Half-open kept: each direction ends on its own once its queued bytes are through.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    client.pause();
    client.setNoDelay?.(true);
    const conn: { sockets: Socket[]; pipes: Pipe[]; start?: () => void } = { sockets: [client], pipes: [] };
    live.add(conn);
    const teardown = (): void => {
      live.delete(conn);
      for (const p of conn.pipes) p.stop();
      for (const s of conn.sockets) s.destroy();
    };
    // A reset or refusal on either side takes the other along; a clean close is the end of
    // both directions, already passed on.
    const onClose = (hadError: boolean): void => {
      if (hadError || conn.pipes.length === 0) teardown();
      else if (conn.sockets.every((s) => s.destroyed)) live.delete(conn);
    };
    client.on('error', () => undefined);
    client.once('close', onClose);
    conn.start = () => {
      conn.start = undefined;
      const upstream = 'port' in target
        ? connect({ host: '127.0.0.1', port: target.port, allowHalfOpen: true })
        : connect({ path: target.path, allowHalfOpen: true });
      conn.sockets.push(upstream);
      upstream.setNoDelay?.(true);
      const up = new Pipe(upstream, () => faults, true);
      const down = new Pipe(client, () => faults, false);
      conn.pipes.push(up, down);
      upstream.once('connect', () => {
        client.on('data', (c: Buffer) => up.push(c));
        client.once('end', () => up.end());
        client.resume();
      });
      upstream.on('data', (c: Buffer) => down.push(c));
      upstream.once('end', () => down.end());
      upstream.on('error', () => undefined);
      upstream.once('close', onClose);
    };
    const lostSyn = faults.loss !== undefined && Math.random() < faults.loss;
    if (lostSyn) setTimeout(() => { if (!faults.partitioned) conn.start?.(); }, synRetryMs);
    else if (!faults.partitioned) conn.start();
  });
  server.on('error', () => { /* per-connection errors are handled there */ });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('port' in listen) server.listen(listen.port, '127.0.0.1', () => resolve());
    else server.listen(listen.path, () => resolve());
  });
  return {
    listen,
    set(f) {
      faults = { ...f };
      for (const c of [...live]) {
        if (!faults.partitioned) c.start?.();
        for (const p of c.pipes) p.pump();
      }
    },
    async close() {
      for (const c of [...live]) { for (const p of c.pipes) p.stop(); for (const s of c.sockets) s.destroy(); }
      live.clear();
      await new Promise((r) => server.close(r));
    },
  };
}
