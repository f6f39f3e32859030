// The fault link on its own: bytes pass unchanged, delay holds them back, a partition holds
// everything (new connections too) and its end lets the held bytes through.
import { expect } from 'chai';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFaultLink, type FaultLink } from './fault-link.js';

/** An echo server on 127.0.0.1. */
async function echo(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends `text` on a fresh connection to the link and resolves with the echo and the time it took. */
function roundTrip(path: string, text: string): { sock: Socket; done: Promise<{ text: string; ms: number }> } {
  const t0 = performance.now();
  const sock = connect({ path });
  const done = new Promise<{ text: string; ms: number }>((resolve, reject) => {
    let got = '';
    sock.on('data', (c: Buffer) => {
      got += c.toString();
      if (got.length >= text.length) resolve({ text: got, ms: performance.now() - t0 });
    });
    sock.once('error', reject);
  });
  sock.write(text);
  return { sock, done };
}

describe('chaos fault link', () => {
  let dir = '';
  let target: { server: Server; port: number };
  let link: FaultLink;
  const sockets: Socket[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fault-link-'));
    target = await echo();
    link = await startFaultLink({ path: join(dir, 'l.sock') }, { port: target.port });
  });
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await link.close();
    await new Promise((r) => target.server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });
  const trip = (text: string): Promise<{ text: string; ms: number }> => {
    const t = roundTrip(join(dir, 'l.sock'), text);
    sockets.push(t.sock);
    return t.done;
  };

  it('relays bytes unchanged both ways', async () => {
    const r = await trip('hello through the link');
    expect(r.text).to.equal('hello through the link');
  });

  it('delays bytes toward the target by the configured range', async () => {
    link.set({ delayMs: [150, 200] });
    const r = await trip('slow');
    expect(r.text).to.equal('slow');
    expect(r.ms).to.be.at.least(145);
  });

  it('holds a new connection while partitioned and lets it through once healed', async () => {
    link.set({ partitioned: true });
    const during = trip('held');
    const outcome = await Promise.race([during.then(() => 'answered'), new Promise((r) => setTimeout(() => r('held'), 400))]);
    expect(outcome).to.equal('held');
    link.set({});
    const r = await during;
    expect(r.text).to.equal('held');
    expect(r.ms).to.be.at.least(395);
  });
});
