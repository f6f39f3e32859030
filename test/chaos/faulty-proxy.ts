// A deliberately faulty server, for tests only: an HTTPS proxy in front of one replica that
// (a) acknowledges one write without passing it on (a write acknowledged and never
// committed: "lost"), and (b) drops one event of one watch stream. It shows the chaos
// checks catch exactly these failures; the shipped server has no such switch.
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsCredentials } from '../harness/index.js';

export interface FaultyProxy {
  url: string;
  /** What was injected: the lost write's key and fabricated resourceVersion, the dropped event. */
  injected: { lostWrite?: { key: string; rv: string; token: string }; droppedEvent?: { name: string; rv: string } };
  close(): Promise<void>;
}

export async function startFaultyProxy(opts: {
  target: string;
  serving: { cert: string; key: string };
  creds: TlsCredentials;
  /** Writes (PUT/PATCH) passed on before the one that is lost. */
  loseWriteAfter?: number;
  /** Watch events passed on (over all streams) before the one that is dropped. */
  dropEventAfter?: number;
}): Promise<FaultyProxy> {
  const injected: FaultyProxy['injected'] = {};
  let writes = 0;
  let events = 0;
  const loseAfter = opts.loseWriteAfter ?? 30;
  const dropAfter = opts.dropEventAfter ?? 20;
  const target = new URL(opts.target);
  const server: Server = createServer({ cert: opts.serving.cert, key: opts.serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      if ((req.method === 'PUT' || req.method === 'PATCH') && /\/configmaps\//.test(path) && !injected.lostWrite && writes++ >= loseAfter) {
        // (a) Acknowledge without committing.
        const name = path.split('?')[0]!.split('/').pop()!;
        const token = (JSON.parse(body.toString()) as { data: { w: string } }).data.w;
        const rv = '999999999';
        injected.lostWrite = { key: name, rv, token };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'chaos', resourceVersion: rv }, data: { w: token } }));
        return;
      }
      const headers = { ...req.headers, host: target.host };
      const up = httpsRequest({
        hostname: target.hostname, port: target.port, method: req.method, path, headers,
        ca: opts.creds.ca, cert: opts.creds.cert, key: opts.creds.key, agent: false,
      }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        if (!/[?&]watch=(1|true)/.test(path)) { upRes.pipe(res); return; }
        // (b) Drop one event line of a watch stream.
        let buf = Buffer.alloc(0);
        upRes.on('data', (c: Buffer) => {
          buf = Buffer.concat([buf, c]);
          let nl: number;
          while ((nl = buf.indexOf(0x0a)) >= 0) {
            const line = buf.subarray(0, nl + 1);
            buf = buf.subarray(nl + 1);
            const ev = JSON.parse(line.toString()) as { type: string; object: { metadata?: { name?: string; resourceVersion?: string } } };
            if (!injected.droppedEvent && (ev.type === 'ADDED' || ev.type === 'MODIFIED') && events++ >= dropAfter) {
              injected.droppedEvent = { name: ev.object.metadata?.name ?? '', rv: ev.object.metadata?.resourceVersion ?? '' };
              continue;
            }
            res.write(line);
          }
        });
        upRes.on('end', () => res.end());
        upRes.on('error', () => res.destroy());
      });
      up.on('error', () => res.destroy());
      res.on('close', () => up.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    injected,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
