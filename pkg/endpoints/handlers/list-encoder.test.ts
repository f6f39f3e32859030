import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { encodeObject } from '../../runtime/serializer/protobuf/envelope.js';
import { goJson } from '../../runtime/serializer/json/go-escapes.js';
import { markShared, recordView } from '../../runtime/serializer/shared-encodings.js';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import {
  batchBytes, collectionField, encodeJsonCooperatively, encodeProtobufCooperatively, joinedBatches, writeBatches, BatchedBody, sendBatchedBody,
} from './list-encoder.js';

function configMapList(n: number, payload = 900): Record<string, unknown> {
  return {
    kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '42', continue: 'tok"en' },
    items: Array.from({ length: n }, (_, i) => ({
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: 'ns', uid: `u-${i}`, labels: { app: 'é\u2028"x<&>' }, creationTimestamp: '2024-01-01T00:00:00Z' },
      data: { payload: 'x'.repeat(payload), nested: `line\n${i}` },
    })),
  };
}

describe('list-encoder (cooperative encoding of large collections)', () => {
  it('streams only collections of at least 100 items or rows', () => {
    expect(collectionField(configMapList(99))).to.equal(undefined);
    expect(collectionField(configMapList(100))).to.equal('items');
    expect(collectionField({ kind: 'Table', rows: new Array(150).fill({ cells: [] }) })).to.equal('rows');
    expect(collectionField('text')).to.equal(undefined);
  });

  it('writes the bytes of serialize() (goJson), compact and pretty, in several chunks', async () => {
    const list = configMapList(300);
    const compact = await encodeJsonCooperatively(list, 'items', false);
    expect(compact.length).to.be.greaterThan(3);
    expect(Buffer.concat(compact).toString()).to.equal(`${goJson(list)}\n`);
    const pretty = await encodeJsonCooperatively(list, 'items', true);
    expect(Buffer.concat(pretty).toString()).to.equal(`${goJson(list, true)}\n`);
  });

  it('keeps the member order of the body when the array is not last, and empty arrays', async () => {
    const table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, rows: [1, null, { cells: ['a', 2] }], columnDefinitions: [{ name: 'Name' }] };
    expect(Buffer.concat(await encodeJsonCooperatively(table, 'rows', false)).toString()).to.equal(`${goJson(table)}\n`);
    expect(Buffer.concat(await encodeJsonCooperatively(table, 'rows', true)).toString()).to.equal(`${goJson(table, true)}\n`);
    const empty = { ...table, rows: [] };
    expect(Buffer.concat(await encodeJsonCooperatively(empty, 'rows', true)).toString()).to.equal(`${goJson(empty, true)}\n`);
  });

  it('writes the bytes of the one-shot protobuf envelope, in several chunks', async () => {
    const list = configMapList(400);
    const chunks = await encodeProtobufCooperatively(list);
    expect(chunks).to.not.equal(undefined);
    expect(chunks!.length).to.be.greaterThan(3);
    expect(Buffer.concat(chunks!).equals(encodeObject(list))).to.equal(true);
    const small = configMapList(120, 10);
    expect(Buffer.concat((await encodeProtobufCooperatively(small))!).equals(encodeObject(small))).to.equal(true);
  });

  it('writes the same bytes when items are views of the watch cache\'s shared objects, twice and mixed with plain items', async () => {
    const list = configMapList(300);
    const items = list.items as Array<Record<string, unknown>>;
    // Every other item a typed view of a shared object, as the generic store's decorate() makes them.
    list.items = items.map((it, i) => {
      if (i % 2) return it;
      const { apiVersion: _a, kind: _k, ...rest } = it;
      const source = markShared({ ...rest });
      const view: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', ...source };
      recordView(view, source);
      return view;
    });
    for (let round = 0; round < 2; round++) {
      expect(Buffer.concat(await encodeJsonCooperatively(list, 'items', false)).toString()).to.equal(`${goJson(list)}\n`);
      expect(Buffer.concat(await encodeJsonCooperatively(list, 'items', true)).toString()).to.equal(`${goJson(list, true)}\n`);
      expect(Buffer.concat((await encodeProtobufCooperatively(list))!).equals(encodeObject(list))).to.equal(true);
    }
  });

  it('writes the cached bytes of a view for a copy of it without apiVersion/kind (a built-in list\'s item), encoded without them', async () => {
    const list = configMapList(150);
    const sources: Array<Record<string, unknown>> = [];
    const views = (list.items as Array<Record<string, unknown>>).map(({ apiVersion: _a, kind: _k, ...rest }) => {
      const source = markShared({ ...rest });
      sources.push(source);
      const view: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', ...source };
      recordView(view, source);
      return view;
    });
    const bare = { ...list, items: views.map(({ apiVersion: _a, kind: _k, ...item }) => item) };
    const first = await encodeJsonCooperatively(bare, 'items', false);
    expect(Buffer.concat(first).toString()).to.equal(`${goJson({ ...list, items: sources })}\n`);
    // Read again (new copies): the very buffers of the first encoding, not new ones.
    const again = await encodeJsonCooperatively({ ...list, items: views.map(({ apiVersion: _a, kind: _k, ...item }) => item) }, 'items', false);
    const cached = new Set(first.filter((b) => b.length > 500));
    expect(cached.size).to.equal(150);
    expect(again.filter((b) => cached.has(b))).to.have.length(150);
    // The typed views themselves still encode with both.
    expect(Buffer.concat(await encodeJsonCooperatively({ ...list, items: views }, 'items', false)).toString()).to.equal(`${goJson({ ...list, items: views })}\n`);
  });

  it('gives the event loop back between batches', async () => {
    let ticks = 0;
    const timer = setInterval(() => { ticks++; }, 0);
    const t = setImmediate(() => { ticks++; });
    await encodeJsonCooperatively(configMapList(2000), 'items', false);
    clearInterval(timer);
    clearImmediate(t);
    expect(ticks).to.be.greaterThan(1);
  });

  it('gives the event loop back between batches of shared items too, in both formats', async () => {
    // The first list after the objects changed encodes every item once: that must yield as well.
    const sharedList = () => {
      const list = configMapList(2000);
      list.items = (list.items as Array<Record<string, unknown>>).map(({ apiVersion: _a, kind: _k, ...rest }) => {
        const source = markShared({ ...rest });
        const view: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', ...source };
        recordView(view, source);
        return view;
      });
      return list;
    };
    const encoders = { json: (l: Record<string, unknown>) => encodeJsonCooperatively(l, 'items', false), protobuf: encodeProtobufCooperatively };
    for (const [format, encode] of Object.entries(encoders)) {
      let ticks = 0;
      const timer = setInterval(() => { ticks++; }, 0);
      await encode(sharedList());
      clearInterval(timer);
      expect(ticks, format).to.be.greaterThan(1);
    }
  });

  it('groups pieces into writes of at most batchBytes, cutting larger pieces', () => {
    const small = Buffer.alloc(1000);
    const fit = Math.floor((batchBytes - 8) / 1000); // small pieces that join the 5 + 3 bytes
    const batches = [...writeBatches([Buffer.alloc(batchBytes * 2 + 5), Buffer.alloc(3), ...new Array(fit + 5).fill(small)])];
    const sizes = batches.map((b) => b.reduce((n, p) => n + p.length, 0));
    expect(sizes).to.deep.equal([batchBytes, batchBytes, 5 + 3 + fit * 1000, 5 * 1000]);
    expect(batches[2]).to.have.length(fit + 2);
    expect(batches.flat().every((p) => p.length <= batchBytes)).to.equal(true);
  });

  it('BatchedBody delivers every piece through stream.pipeline (as Koa sends it) and ends cleanly', async () => {
    const pieces = Array.from({ length: 3000 }, (_, i) => Buffer.from(`piece-${i};`.repeat(i % 7 + 1)));
    const sink = new PassThrough();
    const got: Buffer[] = [];
    sink.on('data', (c: Buffer) => got.push(c));
    await pipeline(new BatchedBody(pieces), sink);
    expect(Buffer.concat(got).equals(Buffer.concat(pieces))).to.equal(true);
  });

  it('sendBatchedBody sends a BatchedBody itself once the middleware has returned (GET), and leaves HEAD and other bodies to Koa', async () => {
    const pieces = Array.from({ length: 3000 }, (_, i) => Buffer.from(`piece-${i};`.repeat(i % 7 + 1)));
    const length = pieces.reduce((n, p) => n + p.length, 0);
    const sentByUs: string[] = [];
    const app = new Koa();
    app.use(async (ctx, next) => {
      await next();
      sendBatchedBody(ctx);
      if (ctx.respond === false) sentByUs.push(`${ctx.method} ${ctx.path}`);
    });
    app.use(async (ctx, next) => {
      await next();
      // A filter on the way out still sets headers: nothing is written before it returns.
      ctx.set('X-After', 'yes');
    });
    app.use((ctx) => {
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json');
      if (ctx.path === '/list') {
        ctx.body = new BatchedBody(pieces);
        ctx.length = length;
      } else {
        ctx.body = Buffer.from('{}');
      }
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fetch = (method: string, path: string) => new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path }, (res) => {
        const got: Buffer[] = [];
        res.on('data', (c: Buffer) => got.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(got) }));
      });
      req.on('error', reject);
      req.end();
    });
    try {
      const list = await fetch('GET', '/list');
      expect(list.body.equals(Buffer.concat(pieces))).to.equal(true);
      expect(Number(list.headers['content-length'])).to.equal(length);
      expect(list.headers['x-after']).to.equal('yes');
      const head = await fetch('HEAD', '/list');
      expect(head.body.length).to.equal(0);
      expect(Number(head.headers['content-length'])).to.equal(length);
      expect((await fetch('GET', '/one')).body.toString()).to.equal('{}');
      expect(sentByUs).to.deep.equal(['GET /list']);
    } finally {
      server.close();
    }
  });

  it('joinedBatches gives one buffer per write batch, with the same bytes', () => {
    const pieces = Array.from({ length: 3000 }, (_, i) => Buffer.from(`piece-${i};`.repeat(i % 7 + 1)));
    const joined = [...joinedBatches(pieces)];
    expect(joined).to.have.length([...writeBatches(pieces)].length);
    expect(joined.every((b) => b.length <= batchBytes)).to.equal(true);
    expect(Buffer.concat(joined).equals(Buffer.concat(pieces))).to.equal(true);
  });
});
