import { expect } from 'chai';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from './metric-series.js';

type L = 'verb' | 'path';

/** The same metrics twice: stock prom-client and the fast ones, each in its own registry. */
function pair() {
  const stock = new Registry();
  const fast = new Registry();
  const buckets = [0, 0.005, 0.1, 1, 10];
  const h = {
    stock: new Histogram<L>({ name: 'h', help: 'h', labelNames: ['verb', 'path'], buckets, registers: [stock] }),
    fast: new FastHistogram<L>({ name: 'h', help: 'h', labelNames: ['verb', 'path'], buckets, registers: [fast] }),
  };
  const c = {
    stock: new Counter<L>({ name: 'c', help: 'c', labelNames: ['verb', 'path'], registers: [stock] }),
    fast: new FastCounter<L>({ name: 'c', help: 'c', labelNames: ['verb', 'path'], registers: [fast] }),
  };
  const both = (f: (hist: Histogram<L>, count: Counter<L>) => void) => { f(h.stock, c.stock); f(h.fast, c.fast); };
  const texts = async () => [await stock.metrics(), await fast.metrics()];
  return { both, texts };
}

describe('metric series: fast observations', () => {
  it('expose exactly what stock prom-client does for the same observations', async () => {
    const { both, texts } = pair();
    const values = [0, 0.001, 0.005, 0.0051, 0.09, 0.5, 1, 3, 10, 11, 1e6];
    both((h, c) => {
      for (let round = 0; round < 3; round++) {
        for (const [i, v] of values.entries()) {
          // Values that could collide if the key were a plain join of label values.
          const labels = i % 3 === 0 ? { verb: 'GET', path: '/a' } : i % 3 === 1 ? { verb: 'GET/', path: 'a' } : { verb: 'POST', path: '' };
          h.observe(labels, v);
          c.inc(labels);
          c.inc(labels, v);
        }
        h.observe({ verb: 'LIST' }, 0.2);
        c.inc({ path: '/x' });
        // Values holding the key's separators take prom-client's own path.
        h.observe({ verb: 'A\u0001', path: '\u0002' }, 0.2);
        h.observe({ verb: 'A', path: '\u0001\u0002' }, 0.3);
        c.inc({ verb: '\u0002', path: '' });
        c.inc({ path: '' });
      }
    });
    const [stock, fast] = await texts();
    expect(fast).to.equal(stock);
    expect(fast).to.contain('h_bucket{le="0.005",verb="GET/",path="a"} 3');
    expect(fast).to.contain('c{verb="POST",path=""} 40.515');
  });

  it('start again after reset() and remove(), as stock metrics do', async () => {
    const { both, texts } = pair();
    both((h, c) => {
      h.observe({ verb: 'GET', path: '/a' }, 0.5);
      h.observe({ verb: 'GET', path: '/a' }, 0.5);
      c.inc({ verb: 'GET', path: '/a' });
      c.inc({ verb: 'GET', path: '/a' });
      h.reset();
      c.reset();
      h.observe({ verb: 'GET', path: '/a' }, 2);
      h.observe({ verb: 'GET', path: '/a' }, 2);
      c.inc({ verb: 'GET', path: '/a' }, 5);
      c.inc({ verb: 'GET', path: '/a' }, 5);
      h.remove({ verb: 'GET', path: '/a' });
      c.remove({ verb: 'GET', path: '/a' });
      h.observe({ verb: 'GET', path: '/a' }, 0.05);
      h.observe({ verb: 'GET', path: '/a' }, 0.05);
      c.inc({ verb: 'GET', path: '/a' }, 7);
      c.inc({ verb: 'GET', path: '/a' });
    });
    const [stock, fast] = await texts();
    expect(fast).to.equal(stock);
    expect(fast).to.contain('h_count{verb="GET",path="/a"} 2');
    expect(fast).to.contain('h_sum{verb="GET",path="/a"} 0.1');
    expect(fast).to.contain('c{verb="GET",path="/a"} 8');
  });

  it('gauges go up and down as stock ones do, across reset() and remove(), and refuse what stock ones refuse', async () => {
    const stock = new Registry();
    const fast = new Registry();
    const gauges = [
      new Gauge<L>({ name: 'g', help: 'g', labelNames: ['verb', 'path'], registers: [stock] }),
      new FastGauge<L>({ name: 'g', help: 'g', labelNames: ['verb', 'path'], registers: [fast] }),
    ];
    for (const g of gauges) {
      for (let i = 0; i < 5; i++) g.inc({ verb: 'GET', path: '/a' });
      g.dec({ verb: 'GET', path: '/a' });
      g.dec({ verb: 'GET', path: '/a' }, 0.5);
      g.inc({ verb: 'GET/', path: 'a' }, 2);
      g.dec({ verb: 'PUT' });
      g.dec({ verb: 'PUT' });
      g.inc({ verb: 'A\u0001', path: '\u0002' });
      g.inc({ verb: 'A', path: '\u0001\u0002' }, 3);
      g.set({ verb: 'SET' }, 7);
      g.inc({ verb: 'SET' });
      g.reset();
      g.inc({ verb: 'GET', path: '/a' }, 4);
      g.dec({ verb: 'GET', path: '/a' });
      g.inc({ verb: 'GET/', path: 'a' });
      g.remove({ verb: 'GET/', path: 'a' });
      g.dec({ verb: 'GET/', path: 'a' });
      g.dec({ verb: 'GET/', path: 'a' });
      g.inc({ verb: 'PUT' }, 2);
      expect(() => g.inc({ verb: 'GET', path: '/a' }, 'x' as never)).to.throw(/not a valid number/);
      expect(() => g.dec({ bogus: 'x' } as never)).to.throw(/label/i);
    }
    const [a, b] = [await stock.metrics(), await fast.metrics()];
    expect(b).to.equal(a);
    expect(b).to.contain('g{verb="GET",path="/a"} 3');
    expect(b).to.contain('g{verb="GET/",path="a"} -2');
  });

  it('reject what stock prom-client rejects', () => {
    const { both } = pair();
    both((h, c) => {
      h.observe({ verb: 'GET' }, 1);
      expect(() => h.observe({ verb: 'GET' }, Number.NaN)).to.throw(/not a valid number/);
      expect(() => h.observe({ bogus: 'x' } as never, 1)).to.throw(/label/i);
      c.inc({ verb: 'GET' });
      expect(() => c.inc({ verb: 'GET' }, -1)).to.throw(/not possible to decrease/);
      expect(() => c.inc({ bogus: 'x' } as never)).to.throw(/label/i);
    });
  });
  it('bound observers expose what stock observe() does, across reset() and remove()', async () => {
    const stock = new Registry();
    const fast = new Registry();
    const buckets = [0, 0.005, 0.1, 1, 10];
    const h = new Histogram<L>({ name: 'h', help: 'h', labelNames: ['verb', 'path'], buckets, registers: [stock] });
    const f = new FastHistogram<L>({ name: 'h', help: 'h', labelNames: ['verb', 'path'], buckets, registers: [fast] });
    const get = f.bound({ verb: 'GET', path: '/a' });
    const odd = f.bound({ verb: 'A\u0001', path: '\u0002' });
    for (const v of [0, 0.004, 0.5, 3, 1e6]) {
      h.observe({ verb: 'GET', path: '/a' }, v);
      get(v);
      h.observe({ verb: 'A\u0001', path: '\u0002' }, v);
      odd(v);
    }
    expect(await fast.metrics()).to.equal(await stock.metrics());
    h.reset();
    f.reset();
    h.observe({ verb: 'GET', path: '/a' }, 2);
    get(2);
    h.remove({ verb: 'GET', path: '/a' });
    f.remove({ verb: 'GET', path: '/a' });
    h.observe({ verb: 'GET', path: '/a' }, 0.05);
    get(0.05);
    h.observe({ verb: 'GET', path: '/a' }, 0.06);
    get(0.06);
    const text = await fast.metrics();
    expect(text).to.equal(await stock.metrics());
    expect(text).to.contain('h_count{verb="GET",path="/a"} 2');
    expect(() => get(Number.NaN)).to.throw(/not a valid number/);
  });
});
