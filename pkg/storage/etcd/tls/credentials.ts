// gRPC channel credentials for one https:// etcd member. etcd3 takes only the buffers of
// grpc's createSsl, fixed when the client is made; these read the TLS context of the
// flag files at every new connection (so a renewed pair is used without a restart) and
// tell the handshake's outcome, which etcd3 otherwise hides behind UNAVAILABLE or an
// open circuit breaker.
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import { connect } from 'node:tls';
import grpc from '@grpc/grpc-js';
import type { ReloadingTLSFiles } from './files.js';

/** Told of every failed handshake, and of a connection that stayed up. */
export interface HandshakeObserver {
  failed(endpoint: string, reason: string): void;
  established(endpoint: string): void;
}

/**
 * How long a connection must live before the member counts as reached: with TLS 1.3 a
 * member that rejects our client certificate says so with an alert just after the
 * handshake completed on our side.
 */
const settledMs = 1000;

export class EtcdChannelCredentials extends grpc.ChannelCredentials {
  private readonly host: string;

  constructor(private readonly endpoint: string, private readonly files: ReloadingTLSFiles, private readonly observer: HandshakeObserver) {
    super();
    // Upstream's client checks the certificate against the endpoint's host, name or IP.
    this.host = new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1');
  }

  _isSecure(): boolean { return true; }

  _equals(other: grpc.ChannelCredentials): boolean { return other === this; }

  _createSecureConnector(_target: unknown, _options: unknown, callCredentials?: grpc.CallCredentials) {
    const callCreds = callCredentials ?? grpc.credentials.createEmpty();
    return {
      connect: (socket: Socket) => this.connect(socket),
      waitForReady: () => Promise.resolve(),
      getCallCredentials: () => callCreds,
      destroy: () => undefined,
    };
  }

  private connect(socket: Socket): Promise<{ socket: Socket; secure: boolean }> {
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const fail = (err: Error) => {
        if (timer) clearTimeout(timer);
        // Once connected, only a TLS alert is the handshake's (a member refusing our
        // certificate under TLS 1.3); a reset is the member going away.
        if (!settled || (err as NodeJS.ErrnoException).code?.startsWith('ERR_SSL_')) this.observer.failed(this.endpoint, reasonOf(err));
        if (!settled) { settled = true; reject(err); }
      };
      const tlsSocket = connect({
        socket, secureContext: this.files.context(), host: this.host, ALPNProtocols: ['h2'],
        // SNI carries names only (RFC 6066); an IP is still checked against the IP SANs.
        ...(isIP(this.host) ? {} : { servername: this.host }),
      }, () => {
        if (!tlsSocket.authorized) {
          fail(tlsSocket.authorizationError ?? new Error('certificate not authorized'));
          tlsSocket.destroy();
          return;
        }
        settled = true;
        timer = setTimeout(() => this.observer.established(this.endpoint), settledMs);
        timer.unref();
        resolve({ socket: tlsSocket, secure: true });
      });
      tlsSocket.on('error', fail);
      tlsSocket.once('close', () => {
        if (timer) clearTimeout(timer);
        if (!settled) { settled = true; reject(new Error('connection closed during the TLS handshake')); }
      });
    });
  }
}

/** The handshake's reason as a user can act on it: OpenSSL's words and Node's code. */
export function reasonOf(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  // "8016...:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:<file>:..."
  const openssl = /SSL routines:[^:]*:([^:]+)/.exec(err.message)?.[1];
  let reason = openssl ?? err.message;
  if (/alert (bad certificate|certificate required|unknown ca|certificate unknown)/.test(reason)) {
    reason = `etcd refused our client certificate (none sent, or not signed by a CA it trusts): ${reason}`;
  }
  return code && !reason.includes(code) ? `${reason} (${code})` : reason;
}
