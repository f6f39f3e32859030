// Upgrade requests (exec, attach, port-forward) arrive on the server's 'upgrade' event
// with the raw socket. They still run through the whole filter chain with a response
// bound to that socket; a handler that relays the upgrade takes the socket over here.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

interface Upgrade { socket: Duplex; head: Buffer; res: ServerResponse; taken: boolean }

const upgrades = new WeakMap<IncomingMessage, Upgrade>();

/** The server's 'upgrade' listener: answers through `handle` like any request. */
export function upgradeListener(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    res.shouldKeepAlive = false;
    const u: Upgrade = { socket, head, res, taken: false };
    upgrades.set(req, u);
    // Nothing parses further requests on this socket: it ends with its one answer.
    res.on('finish', () => { if (!u.taken) socket.end(); });
    handle(req, res);
  };
}

/** The raw socket and the bytes already read after the request head, once. */
export function takeUpgradeSocket(req: IncomingMessage): { socket: Duplex; head: Buffer } | undefined {
  const u = upgrades.get(req);
  if (!u || u.taken) return undefined;
  u.taken = true;
  u.res.detachSocket(u.socket as Socket);
  return { socket: u.socket, head: u.head };
}

export function isUpgradeRequest(req: IncomingMessage): boolean {
  const conn = req.headers.connection ?? '';
  return Boolean(req.headers.upgrade) && conn.split(',').some((t) => t.trim().toLowerCase() === 'upgrade');
}
