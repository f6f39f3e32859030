// The server side of RFC 6455 on an upgraded socket, as far as the kubelet's channel
// protocols need it: the opening handshake with subprotocol choice, client frames
// (masked, possibly fragmented), ping answered with pong, close answered with close, and
// unmasked binary and close frames out. No extensions (permessage-deflate is never agreed).
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const acceptGuid = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export const Opcode = { Continuation: 0, Text: 1, Binary: 2, Close: 8, Ping: 9, Pong: 10 } as const;

export const CloseCode = { Normal: 1000, ProtocolError: 1002 } as const;

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

export function offeredSubprotocols(req: IncomingMessage): string[] {
  return String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
}

export function acceptKey(key: string): string {
  return createHash('sha1').update(key + acceptGuid).digest('base64');
}

/** The 101 for a handshake choosing `protocol`; undefined when the request is not a valid opening. */
export function handshakeResponse(req: IncomingMessage, protocol: string, extra: string[] = []): string | undefined {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || req.headers['sec-websocket-version'] !== '13') return undefined;
  return [
    'HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade',
    `Sec-WebSocket-Accept: ${acceptKey(key)}`, `Sec-WebSocket-Protocol: ${protocol}`, ...extra, '', '',
  ].join('\r\n');
}

function frame(opcode: number, payload: Buffer): Buffer {
  let head: Buffer;
  if (payload.length < 126) {
    head = Buffer.from([0x80 | opcode, payload.length]);
  } else if (payload.length < 0x10000) {
    head = Buffer.alloc(4);
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(payload.length, 2);
  } else {
    head = Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** An open connection. Events: 'message' (Buffer, binary: boolean), 'close' (code). */
export class WebSocketConnection extends EventEmitter {
  private buf: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentOpcode = 0;
  private closeSent = false;
  private ended = false;

  constructor(readonly socket: Duplex, head: Buffer = Buffer.alloc(0)) {
    super();
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('close', () => this.finish(1006));
    socket.on('error', () => socket.destroy());
    if (head.length > 0) this.receive(head);
  }

  sendBinary(data: Buffer): void {
    if (!this.closeSent) this.socket.write(frame(Opcode.Binary, data));
  }

  /** Sends a close frame; the socket ends once the client answers (or `graceMs` passes). */
  close(code: number = CloseCode.Normal, graceMs = 10_000): void {
    if (this.closeSent) return;
    this.closeSent = true;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.socket.write(frame(Opcode.Close, payload));
    setTimeout(() => this.socket.destroy(), graceMs).unref();
  }

  private finish(code: number): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('close', code);
  }

  private receive(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      const parsed = this.parse();
      if (!parsed) return;
      this.handle(parsed.fin, parsed.opcode, parsed.payload);
    }
  }

  private parse(): { fin: boolean; opcode: number; payload: Buffer } | undefined {
    const b = this.buf;
    if (b.length < 2) return undefined;
    const fin = (b[0] & 0x80) !== 0;
    const opcode = b[0] & 0x0f;
    const masked = (b[1] & 0x80) !== 0;
    let len = b[1] & 0x7f;
    let off = 2;
    if (len === 126) {
      if (b.length < 4) return undefined;
      len = b.readUInt16BE(2);
      off = 4;
    } else if (len === 127) {
      if (b.length < 10) return undefined;
      len = Number(b.readBigUInt64BE(2));
      off = 10;
    }
    const maskOff = off;
    if (masked) off += 4;
    if (b.length < off + len) return undefined;
    const payload = Buffer.from(b.subarray(off, off + len));
    if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= b[maskOff + (i % 4)];
    this.buf = b.subarray(off + len);
    return { fin, opcode, payload };
  }

  private handle(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case Opcode.Ping:
        if (!this.closeSent) this.socket.write(frame(Opcode.Pong, payload));
        return;
      case Opcode.Pong:
        return;
      case Opcode.Close: {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        if (!this.closeSent) {
          this.closeSent = true;
          this.socket.write(frame(Opcode.Close, payload.subarray(0, 2)));
        }
        this.socket.end();
        this.finish(code);
        return;
      }
      case Opcode.Continuation:
        this.fragments.push(payload);
        break;
      default:
        this.fragmentOpcode = opcode;
        this.fragments = [payload];
    }
    if (!fin) return;
    const message = Buffer.concat(this.fragments);
    this.fragments = [];
    this.emit('message', message, this.fragmentOpcode === Opcode.Binary);
  }
}
