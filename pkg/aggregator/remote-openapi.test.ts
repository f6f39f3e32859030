import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Informer, InformerHandlers } from '../client/informer.js';
import type { KubeObject } from '../runtime/object.js';
import { RemoteOpenAPI } from './remote-openapi.js';

/** An informer whose objects the test sets, firing update events like the real one. */
function fakeInformer() {
  const objs = new Map<string, KubeObject>();
  const handlers: InformerHandlers[] = [];
  const informer = {
    get: (_ns: string, name: string) => objs.get(name),
    list: () => [...objs.values()],
    addHandlers: (h: InformerHandlers) => handlers.push(h),
  } as unknown as Informer;
  return {
    informer,
    put(o: KubeObject) {
      const old = objs.get(o.metadata.name ?? '');
      objs.set(o.metadata.name ?? '', o);
      for (const h of handlers) if (old) h.update?.(o, old); else h.add?.(o);
    },
  };
}

const apiService = (available: boolean): KubeObject => ({
  metadata: { name: 'v1.ext.example.com' },
  spec: { group: 'ext.example.com', version: 'v1', service: { namespace: 'ns', name: 'ext', port: 443 }, groupPriorityMinimum: 100, versionPriority: 1 },
  status: { conditions: [{ type: 'Available', status: available ? 'True' : 'False' }] },
});

const spec = {
  swagger: '2.0', info: { title: 'ext', version: '1' },
  paths: {
    '/apis/ext.example.com/v1/things': { get: { responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/Thing' } } } } },
    '/apis/other.example.com/v1/others': { get: { responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/Other' } } } } },
  },
  definitions: { Thing: { type: 'object' }, Other: { type: 'object' } },
};

describe('RemoteOpenAPI (the aggregator\'s copy of extension servers\' OpenAPI)', () => {
  let server: Server;
  let failing = false;
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const f = fakeInformer();
  let remote: RemoteOpenAPI;

  before(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      if (failing) { res.writeHead(500); res.end('boom'); return; }
      if (req.url === '/openapi/v2') {
        if (req.headers['if-none-match'] === '"v2tag"') { res.writeHead(304); res.end(); return; }
        res.writeHead(200, { 'Content-Type': 'application/json', ETag: '"v2tag"' });
        res.end(JSON.stringify(spec));
        return;
      }
      if (req.url === '/openapi/v3') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ paths: {
          'apis/ext.example.com/v1': { serverRelativeURL: '/openapi/v3/apis/ext.example.com/v1?hash=H1' },
          'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=NOTOURS' },
        } }));
        return;
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    remote = new RemoteOpenAPI({
      apiServices: f.informer, log: pino({ level: 'silent' }), refreshMs: 3_600_000,
      resolver: { resolve: () => new URL(`http://127.0.0.1:${port}`) },
    });
    remote.start();
  });
  after(() => { remote.stop(); return new Promise<void>((r) => server.close(() => r())); });

  it('fetches an available APIService\'s documents as system:aggregator, cut to its group version', async () => {
    f.put(apiService(true));
    await remote.settled();
    const v2 = seen.find((s) => s.path === '/openapi/v2');
    expect(v2?.headers).to.include({ 'x-remote-user': 'system:aggregator', accept: 'application/json' });
    expect(v2?.headers).to.not.have.property('x-remote-group');
    expect(remote.v2Specs()).to.have.length(1);
    expect(Object.keys(remote.v2Specs()[0]!.paths as object)).to.deep.equal(['/apis/ext.example.com/v1/things']);
    expect(remote.v2Specs()[0]!.definitions).to.deep.equal({ Thing: { type: 'object' } });
    // Only the APIService's own group version is taken from its v3 root.
    expect([...remote.v3Paths()]).to.deep.equal([['apis/ext.example.com/v1', '/openapi/v3/apis/ext.example.com/v1?hash=H1']]);
    expect(remote.revision()).to.equal(1);
  });

  it('revalidates with the server\'s ETag and keeps what it has on 304 or on a failure', async () => {
    f.put(apiService(true));
    await remote.settled();
    const last = seen.filter((s) => s.path === '/openapi/v2').at(-1);
    expect(last?.headers['if-none-match']).to.equal('"v2tag"');
    expect(remote.revision()).to.equal(1);
    failing = true;
    f.put(apiService(true));
    await remote.settled();
    failing = false;
    expect(remote.v2Specs()).to.have.length(1);
    expect(remote.v3Paths().size).to.equal(1);
    expect(remote.revision()).to.equal(1);
  });

  it('drops an APIService that is not Available', async () => {
    const before = seen.length;
    f.put(apiService(false));
    await remote.settled();
    expect(seen.length).to.equal(before);
    expect(remote.v2Specs()).to.deep.equal([]);
    expect(remote.v3Paths().size).to.equal(0);
    expect(remote.revision()).to.equal(2);
  });
});
