// Closing a connection whose client is still sending. A plain close with unread bytes in
// the receive buffer makes the kernel send a reset, and a reset arriving before the client
// has read the answer discards it: the client sees EPIPE or ECONNRESET instead of the 413.
// Go's server avoids this with closeWriteAndWait: half-close first (FIN), keep reading,
// and close for good only after a short grace period.
import type { Socket } from 'node:net';

/** Go's rstAvoidanceDelay. */
const graceMs = 500;

const lingering = new WeakSet<Socket>();

/** Half-closes `socket` now and destroys it after the grace period or the client's own end. */
export function closeWriteAndWait(socket: Socket): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), graceMs);
  timer.unref();
  socket.once('end', () => { clearTimeout(timer); socket.destroy(); });
  socket.once('close', () => clearTimeout(timer));
  socket.end();
}

/**
 * Makes the server's own close of this connection (after a `Connection: close` answer) a
 * lingering one. Node's HTTP server calls destroySoon once the answer is written, with no
 * hook in between, hence the per-socket override.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => closeWriteAndWait(socket);
}
