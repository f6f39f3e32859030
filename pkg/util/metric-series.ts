// Cheaper observations for the metrics every request records (request, admission, etcd
// and authentication families: dozens of observations per write). prom-client's own
// observe() validates the label names, rebuilds the series key string and allocates a
// closure on every call, and turns each bucket bound into a property name; here a label
// set is resolved to its series once, and later observations add to it directly.
//
// The series live where prom-client keeps them (its per-metric map from its key string
// to { labels, bucketValues | value, sum, count }), so exposition, reset() and
// remove() behave exactly as for a stock metric; metric-series.test.ts checks the
// exposition against stock prom-client fed the same observations, which would catch a
// prom-client upgrade that changes that layout.
import { Counter, Gauge, Histogram, type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration, type LabelValues } from 'prom-client';

interface HistogramSeries { labels: LabelValues<string>; bucketValues: Record<string, number>; sum: number; count: number }
interface CounterSeries { labels: LabelValues<string>; value: number }

/** What prom-client keeps on each metric (not in its typings). */
interface SeriesStore<S> {
  hashMap: Record<string, S>;
  labelNames: string[];
  sortedLabelNames: string[];
}

/** prom-client's key of a series: `name:value,` over the sorted label names present. */
function promKey(sortedNames: string[], labels: LabelValues<string>): string {
  let key = '';
  for (const name of sortedNames) {
    const v = labels[name];
    if (v !== undefined) key += `${name}:${v},`;
  }
  return key;
}

interface Resolved<S> { promKey: string; series: S }
/** One level per label name, keyed by the label's value; the last level holds the series. */
type Level<S> = Map<unknown, Level<S> | Resolved<S>>;

/**
 * Resolved series by label values: a tree of maps walked with the values themselves, so
 * an observation builds no key string (a value is never confused with another, whatever
 * characters it holds).
 */
class SeriesIndex<S> {
  private root: Level<S> = new Map();
  private forMap: Record<string, S> | undefined;

  constructor(private readonly store: SeriesStore<S>) {}

  /** The series of `labels`, if prom-client already holds it under the same key. */
  find(labels: LabelValues<string>): S | undefined {
    const map = this.store.hashMap;
    // reset() replaces the map: everything resolved before belongs to the old one.
    if (map !== this.forMap) {
      this.root = new Map();
      this.forMap = map;
    }
    const names = this.store.labelNames;
    const last = names.length - 1;
    if (last < 0) return undefined;
    let level = this.root;
    for (let i = 0; i < last; i++) {
      const v = labels[names[i]!];
      let next = level.get(v) as Level<S> | undefined;
      if (!next) {
        next = new Map();
        level.set(v, next);
      }
      level = next;
    }
    const v = labels[names[last]!];
    let hit = level.get(v) as Resolved<S> | undefined;
    if (!hit) {
      const pk = promKey(this.store.sortedLabelNames, labels);
      const series = map[pk];
      if (!series) return undefined;
      hit = { promKey: pk, series };
      level.set(v, hit);
    }
    // remove() drops a series from the map: then prom-client starts a new one.
    if (map[hit.promKey] !== hit.series) {
      level.delete(v);
      return undefined;
    }
    return hit.series;
  }
}

/** A Histogram whose observe(labels, value) takes the fast path for a label set seen before. */
export class FastHistogram<T extends string> extends Histogram<T> {
  private readonly store: SeriesStore<HistogramSeries>;
  private readonly stockObserve: (labels: LabelValues<string>, value: number) => void;
  private readonly addTo: (series: HistogramSeries, value: number) => void;

  constructor(config: HistogramConfiguration<T>) {
    super(config);
    const store = this as unknown as SeriesStore<HistogramSeries> & { upperBounds: number[] };
    this.store = store;
    const index = new SeriesIndex<HistogramSeries>(store);
    const bounds = store.upperBounds;
    // bucketValues is keyed by the bound as a property name: convert each once.
    const boundKeys = bounds.map(String);
    const stock = this.observe.bind(this) as (labels: LabelValues<string>, value: number) => void;
    this.stockObserve = stock;
    const addTo = (series: HistogramSeries, value: number): void => {
      for (let i = 0; i < bounds.length; i++) {
        if (value <= bounds[i]!) {
          series.bucketValues[boundKeys[i]!]! += 1;
          break;
        }
      }
      series.sum += value;
      series.count += 1;
    };
    this.addTo = addTo;
    this.observe = ((labels: LabelValues<T> | number, value?: number): void => {
      if (typeof labels !== 'object' || labels === null || typeof value !== 'number' || !Number.isFinite(value)) {
        (stock as (...a: unknown[]) => void)(labels, value);
        return;
      }
      const series = index.find(labels);
      // First sight of a label set (or an invalid one): prom-client validates and creates it.
      if (!series) {
        stock(labels, value);
        return;
      }
      addTo(series, value);
    }) as Histogram<T>['observe'];
  }

  /**
   * observe() for one fixed label set, for a caller that records it again and again (an
   * admission plugin's phase): the series is looked up once, and again only after
   * reset() or remove() dropped it.
   */
  bound(labels: LabelValues<T>): (value: number) => void {
    const key = promKey(this.store.sortedLabelNames, labels);
    let series: HistogramSeries | undefined;
    return (value) => {
      if (!Number.isFinite(value)) {
        this.stockObserve(labels, value);
        return;
      }
      if (series === undefined || this.store.hashMap[key] !== series) {
        this.stockObserve(labels, value);
        series = this.store.hashMap[key];
        return;
      }
      this.addTo(series, value);
    };
  }
}

/** A Counter whose inc(labels, value) takes the fast path for a label set seen before. */
export class FastCounter<T extends string> extends Counter<T> {
  constructor(config: CounterConfiguration<T>) {
    super(config);
    const index = new SeriesIndex<CounterSeries>(this as unknown as SeriesStore<CounterSeries>);
    const stock = this.inc.bind(this) as (labels?: unknown, value?: unknown) => void;
    this.inc = ((labels?: LabelValues<T> | number, value?: number): void => {
      const v = value ?? 1;
      if (typeof labels !== 'object' || labels === null || typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        stock(labels, value);
        return;
      }
      const series = index.find(labels);
      if (!series) {
        stock(labels, value);
        return;
      }
      series.value += v;
    }) as Counter<T>['inc'];
  }
}

/**
 * A Gauge whose inc(labels, value) and dec(labels, value) take the fast path for a label
 * set seen before (APF counts every request executing up and down again).
 */
export class FastGauge<T extends string> extends Gauge<T> {
  constructor(config: GaugeConfiguration<T>) {
    super(config);
    const index = new SeriesIndex<CounterSeries>(this as unknown as SeriesStore<CounterSeries>);
    const add = (stock: (labels?: unknown, value?: unknown) => void, sign: 1 | -1) => (labels?: LabelValues<T> | number, value?: number): void => {
      const v = value ?? 1;
      const series = typeof labels === 'object' && labels !== null && typeof v === 'number' ? index.find(labels) : undefined;
      if (!series) {
        stock(labels, value);
        return;
      }
      series.value += sign * v;
    };
    this.inc = add(this.inc.bind(this) as (labels?: unknown, value?: unknown) => void, 1) as Gauge<T>['inc'];
    this.dec = add(this.dec.bind(this) as (labels?: unknown, value?: unknown) => void, -1) as Gauge<T>['dec'];
  }
}
