import { expect } from 'chai';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { chunkOf, chunkSocket } from './chunked.js';
import { WatchFrameWriter } from './watch-frames.js';

/** The raw bytes of one response from a server whose handler is `handle`, read over a plain socket. */
async function rawResponse(handle: (res: ServerResponse) => Promise<void>): Promise<string> {
  let handled: Promise<void> = Promise.resolve();
  // A failed expectation in the handler fails the test (the connection is dropped so the read ends).
  const server = createServer((_req, res) => { handled = handle(res).catch((err: unknown) => { res.destroy(); throw err; }); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      let got = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => { got += d; });
      socket.on('end', () => resolve(got));
      socket.on('error', reject);
    });
    await handled;
    return raw;
  } finally {
    server.close();
  }
}

const bodyOf = (raw: string): string => raw.slice(raw.indexOf('\r\n\r\n') + 4);
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('pre-framed HTTP/1.1 chunks (watch fan-out)', () => {
  const frames = ['{"type":"ADDED"}\n', Buffer.from('{"type":"MODIFIED","object":{"data":"é"}}\n'), 'x'.repeat(5000)];

  it('frames a chunk as Node does: hex size of the bytes, CRLF, bytes, CRLF', () => {
    expect(chunkOf('é\n').toString('latin1')).to.equal('3\r\n\xc3\xa9\n\r\n');
    expect(chunkOf(Buffer.alloc(26, 'a')).toString()).to.equal(`1a\r\n${'a'.repeat(26)}\r\n`);
  });

  it('gives the same body, ended by the last chunk, as writing every frame through the response', async () => {
    const viaResponse = await rawResponse(async (res) => {
      res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      for (const f of frames) { res.write(f); await tick(); }
      res.end();
    });
    let direct = 0;
    const viaSocket = await rawResponse(async (res) => {
      res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      // Before the head has left, nothing may bypass the response.
      expect(chunkSocket(res)).to.equal(undefined);
      res.flushHeaders();
      for (const [i, f] of frames.entries()) {
        // Mixed, as a watch mixes shared events with bookmarks: the order must hold.
        const socket = i === 1 ? undefined : chunkSocket(res);
        if (socket) { socket.write(chunkOf(f)); direct++; } else res.write(f);
        await tick();
      }
      res.end();
    });
    expect(direct).to.equal(2);
    expect(bodyOf(viaSocket)).to.equal(bodyOf(viaResponse));
    expect(bodyOf(viaSocket).endsWith('0\r\n\r\n')).to.equal(true);
  });

  it('leaves a response Node does not chunk (Content-Length) to res.write', async () => {
    await rawResponse(async (res) => {
      res.writeHead(200, { 'Content-Length': '2' });
      res.flushHeaders();
      expect(chunkSocket(res)).to.equal(undefined);
      res.end('ok');
    });
  });
});

describe('watch frames queued in a burst (watch fan-out)', () => {
  const frames = ['{"type":"ADDED"}\n', Buffer.from('{"type":"MODIFIED","object":{"data":"é"}}\n'), 'x'.repeat(5000)];
  const failed = (err: unknown): void => { throw err; };

  it('writes the frames of one turn to the socket in one write, in order, and what is left before the end', async () => {
    const viaResponse = await rawResponse(async (res) => {
      res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      for (const f of [...frames, 'last\n']) res.write(f);
      res.end();
    });
    const socketWrites: number[] = [];
    const written: number[] = [];
    const batched = await rawResponse(async (res) => {
      res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      await tick();
      const socket = res.socket!;
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      // Node's own writes pass a callback (the end's 'finish' waits for it): keep every argument.
      socket.write = ((...args: unknown[]) => { socketWrites.push((args[0] as Buffer).length); return write(...args); }) as typeof socket.write;
      const writer = new WatchFrameWriter(res, true, { framesWritten: (n) => written.push(n), writeStopped: failed });
      // The middle frame comes pre-framed, as a shared event's chunk does.
      writer.add(frames[0]!);
      writer.add(frames[1]!, chunkOf(frames[1]!));
      writer.add(frames[2]!);
      expect(socketWrites).to.deep.equal([]);
      await tick();
      expect(written).to.deep.equal([3]);
      expect(socketWrites).to.have.length(1);
      // Ending: what is queued goes first, then the last chunk.
      writer.add('last\n');
      writer.flush();
      res.end();
    });
    expect(written).to.deep.equal([3, 1]);
    expect(bodyOf(batched)).to.equal(bodyOf(viaResponse));
  });

  it('joins the same frames once for every watcher that queued them', async () => {
    const outs = [0, 1, 2].map(() => ({ writableEnded: false, destroyed: false, got: [] as Array<string | Buffer>,
      write(this: { got: Array<string | Buffer> }, b: string | Buffer) { this.got.push(b); return true; } }));
    const shared = [Buffer.from('a\n'), Buffer.from('b\n')];
    const writers = outs.map((o) => new WatchFrameWriter(o as unknown as ServerResponse, false, { framesWritten: () => undefined, writeStopped: failed }));
    for (const w of writers.slice(0, 2)) for (const f of shared) w.add(f);
    // Another selection: other frames, its own copy.
    writers[2]!.add(shared[0]!);
    writers[2]!.add('c\n');
    await tick();
    expect(outs[0]!.got).to.have.length(1);
    expect(outs[0]!.got[0]!.toString()).to.equal('a\nb\n');
    expect(outs[1]!.got[0]).to.equal(outs[0]!.got[0]);
    expect(outs[2]!.got[0]!.toString()).to.equal('a\nc\n');
  });
});
