import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import { createLogger, createRequestLogger, formatGoDuration, isoTime, levelForVerbosity } from './logging.js';
import { klogLine } from './klog-text.js';
import { requestInfoFilter } from './request-info.js';

interface Line { level: number; time: string; msg: string; [k: string]: unknown }

function capture(): { lines: Line[]; stream: Writable } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Line);
      cb();
    },
  });
  return { lines, stream };
}

async function eventually(check: () => void, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

describe('pkg/endpoints/filters/logging', function () {
  it('formats latency like Go durations', function () {
    expect(formatGoDuration(0n)).to.equal('0s');
    expect(formatGoDuration(850n)).to.equal('850ns');
    expect(formatGoDuration(1_500n)).to.equal('1.5µs');
    expect(formatGoDuration(1_234_567n)).to.equal('1.234567ms');
    expect(formatGoDuration(2_000_000n)).to.equal('2ms');
    expect(formatGoDuration(2_500_000_000n)).to.equal('2.5s');
    expect(formatGoDuration(123_500_000_000n)).to.equal('2m3.5s');
    expect(formatGoDuration(3_723_000_000_000n)).to.equal('1h2m3s');
  });

  it("stamps lines with pino's isoTime chunk, the current millisecond's", function () {
    let compared = 0;
    for (let i = 0; i < 50 && compared < 3; i++) {
      const before = pino.stdTimeFunctions.isoTime();
      const chunk = isoTime();
      const after = pino.stdTimeFunctions.isoTime();
      expect(chunk >= before && chunk <= after, `${before} <= ${chunk} <= ${after}`).to.equal(true);
      if (before === after) {
        expect(chunk).to.equal(before);
        compared++;
      }
    }
    expect(compared).to.be.greaterThan(0);
  });

  it('maps klog verbosity to levels', function () {
    expect(levelForVerbosity(0)).to.equal('info');
    expect(levelForVerbosity(3)).to.equal('debug');
    expect(levelForVerbosity(6)).to.equal('trace');
  });

  it('honours the level of the logger', function () {
    const { lines, stream } = capture();
    const log = createLogger('warn', stream);
    log.info('hidden');
    log.warn('shown');
    expect(lines.map((l) => l.msg)).to.deep.equal(['shown']);
    expect(lines[0].level).to.equal(40);
    expect(lines[0].time).to.match(/^\d{4}-\d\d-\d\dT/);
  });

  it('writes one structured line per request after it completes, at -v=3 (debug); 5xx always', async function () {
    const { lines, stream } = capture();
    const log = createLogger('debug', stream);
    const app = new Koa();
    app.use(createRequestLogger(log));
    app.use(requestInfoFilter());
    app.use(async (ctx) => {
      ctx.state.user = { name: 'system:admin', groups: ['system:masters'] };
      ctx.set('Audit-ID', 'b9a4c4b6-1b7e-4b0e-9a55-2f6b0d2b7e11');
      if (ctx.path.endsWith('/boom') || ctx.path.startsWith('/readyz')) {
        ctx.status = 503;
        ctx.body = 'down';
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
      ctx.body = '{"kind":"ConfigMapList"}';
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await (await fetch(`${base}/api/v1/namespaces/default/configmaps?limit=500`, { headers: { 'User-Agent': 'kubectl/v1.28.3 (linux/amd64) kubernetes/a8a1abc' } })).text();
      await eventually(() => expect(lines).to.have.length(1));
      const l = lines[0];
      expect(l.msg).to.equal('HTTP');
      expect(l.level).to.equal(20);
      expect(l.verb).to.equal('LIST');
      expect(l.URI).to.equal('/api/v1/namespaces/default/configmaps?limit=500');
      expect(l.resp).to.equal(200);
      expect(l.user).to.equal('system:admin');
      expect(l.userAgent).to.equal('kubectl/v1.28.3 (linux/amd64) kubernetes/a8a1abc');
      expect(l['audit-ID']).to.equal('b9a4c4b6-1b7e-4b0e-9a55-2f6b0d2b7e11');
      expect(l.srcIP).to.match(/^127\.0\.0\.1:\d+$/);
      expect(l.latencyMs).to.be.a('number').greaterThan(15);
      expect(l.latency).to.match(/ms$/);
      expect(l).to.not.have.property('aborted');

      await (await fetch(`${base}/api/v1/namespaces/default/configmaps/boom`, { method: 'DELETE' })).text();
      await eventually(() => expect(lines).to.have.length(2));
      expect(lines[1]).to.include({ msg: 'HTTP', level: 50, verb: 'DELETE', resp: 503 });
      // A failing health check is an answer, not a server error: its line keeps the request level.
      await (await fetch(`${base}/readyz?verbose`)).text();
      await eventually(() => expect(lines).to.have.length(3));
      expect(lines[2]).to.include({ msg: 'HTTP', level: 20, URI: '/readyz?verbose', resp: 503 });
    } finally {
      server.close();
    }
  });

  it('logs a watch once it ends, with its whole life as latency and the facts of its request, never as slow', async function () {
    const { lines, stream } = capture();
    const log = createLogger('debug', stream);
    const app = new Koa();
    app.use(createRequestLogger(log, { slowMs: 10 }));
    app.use(requestInfoFilter());
    let body: PassThrough | undefined;
    app.use(async (ctx) => {
      ctx.state.user = { name: 'system:node:n1', groups: ['system:nodes'] };
      ctx.state.auditID = '0f3c1d2e-4b5a-4c6d-8e7f-8091a2b3c4d5';
      body = new PassThrough();
      ctx.body = body;
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const pending = fetch(`${base}/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Da`, { headers: { 'User-Agent': 'kubelet/v1.28.3' } });
      await eventually(() => expect(body).to.not.equal(undefined));
      body!.write('{"type":"ADDED"}\n');
      const res = await pending;
      await new Promise((r) => setTimeout(r, 60));
      expect(lines).to.have.length(0);
      body!.end();
      await res.text();
      await eventually(() => expect(lines).to.have.length(1));
      expect(lines[0]).to.include({
        msg: 'HTTP', level: 20, verb: 'WATCH', URI: '/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Da',
        userAgent: 'kubelet/v1.28.3', 'audit-ID': '0f3c1d2e-4b5a-4c6d-8e7f-8091a2b3c4d5', user: 'system:node:n1', resp: 200,
      });
      expect(lines[0]!.latencyMs).to.be.a('number').greaterThan(55);
      expect(lines[0]).to.not.have.property('slow');
      expect(lines[0]).to.not.have.property('aborted');
    } finally {
      server.close();
    }
  });

  it('at the default verbosity logs only failed and slow requests', async function () {
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    const app = new Koa();
    app.use(createRequestLogger(log, { slowMs: 500 }));
    app.use(requestInfoFilter());
    app.use(async (ctx) => {
      if (ctx.path.endsWith('/slow')) await new Promise((r) => setTimeout(r, 700));
      ctx.status = ctx.path.endsWith('/boom') ? 500 : 200;
      ctx.body = '{}';
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const p of ['fast', 'slow', 'boom']) await (await fetch(`${base}/api/v1/namespaces/default/configmaps/${p}`)).text();
      await eventually(() => expect(lines).to.have.length(2));
      expect(lines.map((l) => [l.URI, l.level, l.slow])).to.deep.equal([
        ['/api/v1/namespaces/default/configmaps/slow', 40, true],
        ['/api/v1/namespaces/default/configmaps/boom', 50, undefined],
      ]);
    } finally {
      server.close();
    }
  });

  it('formats records as klog text lines for --logging-format=text', function () {
    const line = klogLine({ level: 30, time: Date.UTC(2026, 10, 25, 10, 51, 48, 123), pid: 42, hostname: 'h', msg: 'HTTP', verb: 'GET', resp: 200, user: 'admin', nested: { a: 1 } });
    expect(line).to.equal('I1125 10:51:48.123000      42 apiserver] "HTTP" verb="GET" resp=200 user="admin" nested="{\\"a\\":1}"\n');
    expect(klogLine({ level: 50, time: 0, pid: 1, msg: 'boom', err: { message: 'x' } })).to.match(/^E0101 00:00:00\.000000       1 apiserver\] "boom" err="x"\n$/);
    // Most call sites log the message alone: it must not be dropped.
    expect(klogLine({ level: 40, time: 0, pid: 1, msg: 'unable', err: 'etcd unreachable' })).to.match(/^W0101 00:00:00\.000000       1 apiserver\] "unable" err="etcd unreachable"\n$/);
  });
});

