// Upstream's connection-level limits of the secure server (http.Server in
// k8s.io/apiserver/pkg/server/secure_serving.go), in Node's terms: request headers up to
// 1 MiB (Go's default MaxHeaderBytes; Node's own default is 16 KiB, which refused long
// bearer tokens and long URLs upstream takes), 32 s to send them (ReadHeaderTimeout), 90 s
// for an idle keep-alive connection (IdleTimeout).
import type { Socket } from 'node:net';
import type { Server } from 'node:https';

export const maxHeaderBytes = 1 << 20;
export const readHeaderTimeoutMs = 32_000;
export const idleTimeoutMs = 90_000;

/** Options for https.createServer. */
export const connectionOptions = {
  maxHeaderSize: maxHeaderBytes,
  headersTimeout: readHeaderTimeoutMs,
  // Go's deadline covers the TLS handshake too.
  handshakeTimeout: readHeaderTimeoutMs,
  // Node only looks for expired header timers this often (default 30 s, which would let a
  // slow client hold a connection for up to a minute).
  connectionsCheckingInterval: 1_000,
};

/**
 * Go answers a malformed request with a bare 400 (431 for oversized headers) and closes,
 * and closes without a word when the headers (or the TLS handshake) do not arrive in time; Node would answer the
 * latter with a 408, which no Go server sends.
 */
export function applyConnectionLimits(server: Server): void {
  server.keepAliveTimeout = idleTimeoutMs;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // https hands TLS failures here too (a handshake that timed out or failed): Go's server
    // logs them and closes. An HTTP 400 on such a socket once reached a client whose
    // handshake the busy server had not finished reading within the 32 s (TLS 1.3 lets the
    // server write first), which took it for its watch's answer.
    const tlsFailure = /^ERR_(TLS|SSL)_/.test(err.code ?? '') || 'library' in err;
    if (tlsFailure || err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
  });
}
