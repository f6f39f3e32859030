// The fake kubelet's hand-written framing against independent peers: Node's zlib as the
// other side of SPDY/3 header compression, raw sockets as SPDY and WebSocket clients.
import { createServer, connect, type Socket } from 'node:net';
import { constants, createDeflate, createInflate, deflateSync } from 'node:zlib';
import { expect } from 'chai';
import { until } from '../poll.js';
import { adler32, spdyDictionary } from './spdy-dictionary.js';
import { decodeHeaderBlock, encodeHeaderBlock, HeaderDeflater, HeaderInflater, SpdySession, type SpdyStream } from './spdy.js';
import { acceptKey, WebSocketConnection } from './websocket.js';

/** A persistent zlib stream flushed after each block, as SPDY peers compress headers. */
function syncFlushingDeflater(): (raw: Buffer) => Promise<Buffer> {
  const d = createDeflate({ dictionary: spdyDictionary });
  const out: Buffer[] = [];
  d.on('data', (c: Buffer) => out.push(c));
  return (raw) => new Promise((resolve) => {
    d.write(raw);
    d.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(out.splice(0))));
  });
}

function syncFlushingInflater(): (block: Buffer) => Promise<Buffer> {
  const i = createInflate({ dictionary: spdyDictionary });
  const out: Buffer[] = [];
  i.on('data', (c: Buffer) => out.push(c));
  return (block) => new Promise((resolve) => {
    i.write(block);
    i.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(out.splice(0))));
  });
}

/** A connected socket pair on 127.0.0.1: [server side, client side]. */
async function socketPair(): Promise<[Socket, Socket, () => void]> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((r) => server.once('connection', r));
  const client = connect(port, '127.0.0.1');
  const side = await accepted;
  return [side, client, () => { client.destroy(); side.destroy(); server.close(); }];
}

/** Reads whole SPDY frames from a socket. */
function frameReader(socket: Socket): () => Promise<Buffer> {
  let buf = Buffer.alloc(0);
  const waiters: Array<() => void> = [];
  socket.on('data', (d: Buffer) => { buf = Buffer.concat([buf, d]); waiters.splice(0).forEach((w) => w()); });
  return async () => {
    for (;;) {
      if (buf.length >= 8) {
        const len = buf.readUInt32BE(4) & 0xffffff;
        if (buf.length >= 8 + len) {
          const f = buf.subarray(0, 8 + len);
          buf = buf.subarray(8 + len);
          return f;
        }
      }
      await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 2000); });
    }
  };
}

function control(type: number, flags: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.writeUInt16BE(0x8003, 0);
  h.writeUInt16BE(type, 2);
  h.writeUInt32BE(payload.length, 4);
  h[4] = flags;
  return Buffer.concat([h, payload]);
}

function data(id: number, flags: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.writeUInt32BE(id, 0);
  h.writeUInt32BE(payload.length, 4);
  h[4] = flags;
  return Buffer.concat([h, payload]);
}

function synStream(id: number, block: Buffer): Buffer {
  const p = Buffer.alloc(10);
  p.writeUInt32BE(id, 0);
  return control(1, 0, Buffer.concat([p, block]));
}

describe('SPDY/3 header compression', () => {
  it('uses the draft\'s dictionary (1423 bytes, the Adler-32 zlib announces for it)', () => {
    expect(spdyDictionary.length).to.equal(1423);
    // The dictionary id kubectl v1.28 (Go's spdystream) sends in its first header block.
    expect(adler32(spdyDictionary)).to.equal(0xe3c6a7c2);
    const announced = deflateSync(Buffer.from('x'), { dictionary: spdyDictionary }).readUInt32BE(2);
    expect(adler32(spdyDictionary)).to.equal(announced);
  });

  it('inflates one session\'s header blocks in turn, as a sync-flushing peer wrote them', async () => {
    const deflate = syncFlushingDeflater();
    const inflater = new HeaderInflater();
    const first = encodeHeaderBlock({ streamtype: 'error' });
    const second = encodeHeaderBlock({ streamtype: 'stdout', other: ['a', 'b'] });
    expect(inflater.inflate(await deflate(first)).equals(first)).to.equal(true);
    const decoded = decodeHeaderBlock(inflater.inflate(await deflate(second)));
    expect([...decoded]).to.deep.equal([['streamtype', ['stdout']], ['other', ['a', 'b']]]);
  });

  it('writes blocks a persistent inflater with the dictionary reads one by one', async () => {
    const inflate = syncFlushingInflater();
    const deflater = new HeaderDeflater();
    const a = deflater.deflate(encodeHeaderBlock({}));
    expect(a.subarray(0, 6).toString('hex')).to.equal(`7820${adler32(spdyDictionary).toString(16).padStart(8, '0')}`);
    expect((await inflate(a)).equals(encodeHeaderBlock({}))).to.equal(true);
    const big = encodeHeaderBlock({ name: 'v'.repeat(70_000) });
    expect((await inflate(deflater.deflate(big))).equals(big)).to.equal(true);
  });
});

describe('SpdySession', () => {
  it('replies to a client stream, passes data and FIN, echoes PING and resets bad stream ids', async () => {
    const [serverSide, client, close] = await socketPair();
    try {
      const streams: SpdyStream[] = [];
      const ended: number[] = [];
      new SpdySession(serverSide, (s) => {
        streams.push(s);
        s.on('data', (d: Buffer) => s.write(Buffer.concat([Buffer.from('echo:'), d])));
        s.on('end', () => { ended.push(s.id); s.end(); });
      });
      const next = frameReader(client);
      const deflate = syncFlushingDeflater();
      const inflate = syncFlushingInflater();
      client.write(synStream(1, await deflate(encodeHeaderBlock({ streamtype: 'stdin', port: '80' }))));
      const reply = await next();
      expect(reply.readUInt16BE(2)).to.equal(2);
      expect(reply.readUInt32BE(8)).to.equal(1);
      expect(decodeHeaderBlock(await inflate(reply.subarray(12))).size).to.equal(0);
      expect(streams[0].header('streamType')).to.equal('stdin');
      client.write(data(1, 0, Buffer.from('hi')));
      const echoed = await next();
      expect([echoed.readUInt32BE(0), echoed.subarray(8).toString()]).to.deep.equal([1, 'echo:hi']);
      const ping = control(6, 0, Buffer.from([0, 0, 0, 7]));
      client.write(ping);
      expect((await next()).equals(ping)).to.equal(true);
      client.write(data(1, 1, Buffer.alloc(0)));
      const fin = await next();
      expect([fin.readUInt32BE(0), fin[4], fin.length]).to.deep.equal([1, 1, 8]);
      expect(ended).to.deep.equal([1]);
      // Stream ids the client opens are odd; an even one is a protocol error.
      client.write(synStream(2, await deflate(encodeHeaderBlock({ streamtype: 'data' }))));
      const rst = await next();
      expect([rst.readUInt16BE(2), rst.readUInt32BE(8), rst.readUInt32BE(12)]).to.deep.equal([3, 2, 1]);
    } finally {
      close();
    }
  });
});

describe('WebSocketConnection', () => {
  it('computes the accept key of RFC 6455\'s example', () => {
    expect(acceptKey('dGhlIHNhbXBsZSBub25jZQ==')).to.equal('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });

  it('unmasks and joins fragments, answers ping and close, sends unmasked binary', async () => {
    const [serverSide, client, close] = await socketPair();
    try {
      const ws = new WebSocketConnection(serverSide);
      const messages: Array<[string, boolean]> = [];
      ws.on('message', (m: Buffer, binary: boolean) => messages.push([m.toString(), binary]));
      let received = Buffer.alloc(0);
      client.on('data', (d: Buffer) => { received = Buffer.concat([received, d]); });
      const mask = Buffer.from([1, 2, 3, 4]);
      const masked = (fin: boolean, opcode: number, payload: string) => {
        const p = Buffer.from(payload).map((b, i) => b ^ mask[i % 4]);
        return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | p.length]), mask, p]);
      };
      // Wait for the bytes, not a fixed pause: a loaded machine may not have read them yet.
      client.write(Buffer.concat([masked(false, 2, 'hel'), masked(true, 0, 'lo'), masked(true, 9, 'p!')]));
      await until('the message and the pong', () => messages.length > 0 && received.length >= 4);
      expect(messages).to.deep.equal([['hello', true]]);
      expect(received.toString('hex')).to.equal(Buffer.from([0x8a, 2, ...Buffer.from('p!')]).toString('hex'));
      ws.sendBinary(Buffer.alloc(300, 7));
      await until('the binary frame', () => received.length >= 4 + 304);
      expect(received.subarray(4, 8).toString('hex')).to.equal('827e012c');
      const closed = new Promise((r) => ws.once('close', r));
      client.write(Buffer.concat([Buffer.from([0x88, 0x82]), mask, Buffer.from([0x03 ^ 1, 0xe8 ^ 2])]));
      expect(await closed).to.equal(1000);
      await until('the close frame', () => received.length >= 4 + 304 + 4);
      expect(received.length).to.equal(4 + 304 + 4);
      expect(received.subarray(-4).toString('hex')).to.equal('880203e8');
    } finally {
      close();
    }
  });
});
