// HTTP/1.1 chunks framed once per watch event instead of once per watcher. A frame written
// with res.write() over chunked encoding went through four socket writes (size line, CRLF,
// frame, CRLF), a cork and a deferred uncork, then a writev: most of what a delivered
// event cost a 1,000-watcher replica besides the TLS write itself. The same bytes, framed
// once and shared by every watcher, go to each socket in one write.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const crlf = Buffer.from('\r\n');

/** `frame` as one chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF. */
export function chunkOf(frame: string | Buffer): Buffer {
  const bytes = typeof frame === 'string' ? Buffer.from(frame) : frame;
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'), bytes, crlf]);
}

/**
 * The socket a pre-framed chunk of this HTTP/1.1 response may be written to directly: its
 * head has left and the response itself queues nothing (a response waiting for its socket,
 * or with bytes of its own still buffered, keeps writing through res.write(), so the order
 * of bytes stays that of the calls). res.end() writes the last chunk as usual.
 */
export function chunkSocket(res: ServerResponse): Socket | undefined {
  // Node's own state (no public API tells it): whether it frames this body in chunks (the
  // handler set Transfer-Encoding: chunked), and whether the head has really been handed to
  // the socket (headersSent is true from writeHead() on, before anything is written).
  // chunked.test.ts fails if a Node upgrade changes either.
  const state = res as unknown as { chunkedEncoding?: boolean; _headerSent?: boolean };
  if (state.chunkedEncoding !== true || state._headerSent !== true) return undefined;
  const socket = res.socket;
  if (!socket || socket.destroyed || res.writableEnded) return undefined;
  return res.writableLength === socket.writableLength ? socket : undefined;
}
