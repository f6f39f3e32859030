// Go's duration syntax, as kube-apiserver and kube-controller-manager flags take it.

/** Go duration syntax: 300ms, 1.5h, 2h45m, 5m0s; returns milliseconds. */
export function parseDurationFlag(name: string, v: string): number {
  if (v === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v)) !== null) { total += Number(m[1]) * unit[m[2]]; matched = re.lastIndex; }
  if (matched !== v.length || v.length === 0) throw new Error(`invalid argument "${v}" for "--${name}" flag: time: invalid duration "${v}"`);
  return total;
}
