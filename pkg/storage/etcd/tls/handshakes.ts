// What the replica knows of its TLS connections to each etcd member: the last failed
// handshake's reason until a connection settles. A failure is logged once per endpoint
// and reason (not at every retry), its recovery once; health checks quote the reasons.
import type { HandshakeObserver } from './credentials.js';

export interface HandshakeLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export class HandshakeStatus implements HandshakeObserver {
  private readonly failing = new Map<string, string>();

  constructor(private readonly log: HandshakeLog) {}

  failed(endpoint: string, reason: string): void {
    if (this.failing.get(endpoint) === reason) return;
    this.failing.set(endpoint, reason);
    this.log.warn({ endpoint, reason }, 'TLS handshake with etcd failed');
  }

  established(endpoint: string): void {
    if (!this.failing.delete(endpoint)) return;
    this.log.info({ endpoint }, 'TLS connection to etcd established');
  }

  /** `https://a:2379: reason; https://b:2379: reason`, or '' when none fails. */
  describe(): string {
    return [...this.failing].map(([endpoint, reason]) => `${endpoint}: TLS handshake failed: ${reason}`).join('; ');
  }
}
