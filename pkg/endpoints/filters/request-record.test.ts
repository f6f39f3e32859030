import { expect } from 'chai';
import pino, { type DestinationStream, type Logger } from 'pino';
import { createLogger, isoTime } from './logging.js';
import { writeRecord } from './request-record.js';

/** A destination keeping every line written to it. */
function lines(): DestinationStream & { got: string[] } {
  const got: string[] = [];
  return { got, write: (l: string) => { got.push(l); } };
}

const records: Array<Record<string, unknown>> = [
  { verb: 'GET', URI: '/api/v1/namespaces/default/configmaps/a', latency: '1.234567ms', latencyMs: 1.234567, userAgent: 'kubectl/v1.28.0 (linux/amd64) kubernetes/abcdef', 'audit-ID': 'f3c1e1a8-1b8e-4a8e-9b9e-0c1b2a3d4e5f', srcIP: '127.0.0.1:40000', resp: 200, user: 'admin' },
  { verb: 'POST', URI: '/x?q="quoted"\\back\u0001ctl', latency: '250µs', latencyMs: 0.25, userAgent: '', 'audit-ID': 'a', srcIP: '[::1]:1', resp: 500, user: undefined, aborted: true },
  { verb: 'LIST', URI: '/api/v1/pods?labelSelector=app%3Dx', latency: '2m3.5s', latencyMs: 123500, userAgent: 'ünïcödé ✓ agent', 'audit-ID': 'b', srcIP: ':0', resp: 429, user: 'système', slow: true },
  { verb: 'GET', latencyMs: Number.NaN, resp: 0 },
  {},
];

/** What pino itself writes for `records`, and what writeRecord writes, with the time pinned. */
function both(make: (dest: DestinationStream) => Logger, level: 'debug' | 'warn' | 'error' = 'debug', fast = false): [string[], string[]] {
  const stock = lines();
  const ours = lines();
  const a = make(stock);
  const b = make(ours);
  // A plain logger's records must not go through pino's own serializer (then the test would compare pino with itself).
  if (fast) b[level] = (() => { throw new Error('written through pino'); }) as never;
  for (const r of records) {
    a[level]({ ...r }, 'HTTP');
    writeRecord(b, level, { ...r }, 'HTTP');
  }
  return [stock.got, ours.got];
}

const pinnedTime = () => ',"time":"2026-11-30T18:00:00.000Z"';

describe('endpoints/filters/request-record', () => {
  it('writes the same text as pino for the server\'s logger, its children and each level', () => {
    const [stock, ours] = both((d) => pino({ level: 'debug', base: { pid: 4242 }, timestamp: pinnedTime }, d), 'debug', true);
    expect(ours).to.deep.equal(stock);
    expect(JSON.parse(ours[1]!)).to.include({ aborted: true, resp: 500 });
    expect(ours[1]).to.not.contain('"user"');
    const [stockChild, oursChild] = both((d) => pino({ level: 'debug', base: { pid: 1 }, timestamp: pinnedTime }, d).child({ component: 'x' }), 'error', true);
    expect(oursChild).to.deep.equal(stockChild);
    const [stockWarn, oursWarn] = both((d) => pino({ level: 'info', timestamp: pinnedTime }, d), 'warn', true);
    expect(oursWarn).to.deep.equal(stockWarn);
  });

  it('writes through createLogger\'s own time chunk as pino does', () => {
    const stock = lines();
    const ours = lines();
    const r = records[0]!;
    createLogger('debug', stock).debug({ ...r }, 'HTTP');
    writeRecord(createLogger('debug', ours), 'debug', { ...r }, 'HTTP');
    // The same millisecond's chunk unless the clock moved between the two writes.
    const strip = (l: string) => l.replace(isoTime(), '').replace(/,"time":"[^"]*"/, '');
    expect(ours.got.map(strip)).to.deep.equal(stock.got.map(strip));
    expect(ours.got).to.have.length(1);
  });

  it('leaves to pino a logger configured otherwise and a string pino writes raw', () => {
    const mixin = () => ({ extra: 1 });
    const [stockMixin, oursMixin] = both((d) => pino({ level: 'debug', timestamp: pinnedTime, mixin }, d));
    expect(oursMixin).to.deep.equal(stockMixin);
    expect(JSON.parse(oursMixin[0]!)).to.include({ extra: 1 });
    const [stockRedact, oursRedact] = both((d) => pino({ level: 'debug', timestamp: pinnedTime, redact: ['user'] }, d));
    expect(oursRedact).to.deep.equal(stockRedact);
    expect(oursRedact[0]).to.contain('"user":"[Redacted]"');
    const [stockPrefix, oursPrefix] = both((d) => pino({ level: 'debug', timestamp: pinnedTime, msgPrefix: '[p] ' }, d));
    expect(oursPrefix).to.deep.equal(stockPrefix);
    const stock = lines();
    const ours = lines();
    const lone = { user: 'a\ud800b' };
    pino({ level: 'debug', timestamp: pinnedTime }, stock).debug({ ...lone }, 'HTTP');
    writeRecord(pino({ level: 'debug', timestamp: pinnedTime }, ours), 'debug', { ...lone }, 'HTTP');
    expect(ours.got).to.deep.equal(stock.got);
    expect(ours.got[0]).to.contain('"user":"a\ud800b"');
  });
});
