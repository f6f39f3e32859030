import { expect } from 'chai';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { chunkOf, chunkSocket } from './chunked.js';

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
