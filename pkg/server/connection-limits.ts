// Upstream's connection-level limits of the secure server (http.Server in
// k8s.io/apiserver/pkg/server/secure_serving.go), in Node's terms: request headers up to
// 1 MiB (Go's default MaxHeaderBytes; Node's own default is 16 KiB, which refused long
// bearer tokens and long URLs upstream takes), 32 s to send them (ReadHeaderTimeout), 90 s
// for an idle keep-alive connection (IdleTimeout). The HTTP/1.1 fallback of Node's HTTP/2
// server reads http.Server's settings from the server object, so they are set there.
import type { Socket } from 'node:net';
import type { Http2SecureServer } from 'node:http2';

export const maxHeaderBytes = 1 << 20;
export const readHeaderTimeoutMs = 32_000;
export const idleTimeoutMs = 90_000;

/** TLS options for http2.createSecureServer. */
export const connectionOptions = {
  // Go's deadline covers the TLS handshake too.
  handshakeTimeout: readHeaderTimeoutMs,
};

/** http.Server's settings the HTTP/1.1 connections of the server follow. */
const http1Settings = {
  maxHeaderSize: maxHeaderBytes,
  headersTimeout: readHeaderTimeoutMs,
  keepAliveTimeout: idleTimeoutMs,
  // Node only looks for expired header timers this often (default 30 s, which would let a
  // slow client hold a connection for up to a minute).
  connectionsCheckingInterval: 1_000,
  // TCP_NODELAY, as Go sets on every connection and Node's HTTP/2 sessions set: without
  // it Nagle held a response's last segment until the client's delayed ACK (40 ms), so a
  // client paging a list over HTTP/1.1 waited 40 ms a page.
  noDelay: true,
};

/**
 * Go answers a malformed request with a bare 400 (431 for oversized headers) and closes,
 * and closes without a word when the headers (or the TLS handshake) do not arrive in time; Node would answer the
 * latter with a 408, which no Go server sends.
 */
export function applyConnectionLimits(server: Http2SecureServer): void {
  // Before listen(): the header timers' check starts on 'listening'.
  Object.assign(server, http1Settings);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // HTTP/1.1 parse errors, and TLS failures (a handshake that timed out or failed, passed
    // on by the HTTP/2 server's 'tlsClientError'): Go's server logs those and closes. An HTTP 400 on such a socket once reached a client whose
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
