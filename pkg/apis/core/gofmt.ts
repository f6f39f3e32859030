// Go %#v renderings of core and meta types that validation messages print.
import { GoLiteral, goQuote } from '../../runtime/gofmt.js';
import type { Obj } from './types.js';
import { arr, obj, str, strMap } from './types.js';

/** map[string]string{"a":"b", "c":"d"} (Go prints map keys sorted). */
export function goStringMap(m: Record<string, string> | undefined | null): string {
  if (m === undefined || m === null) return 'map[string]string(nil)';
  const entries = Object.keys(m).sort().map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`);
  return `map[string]string{${entries.join(', ')}}`;
}

export function goStringMapLiteral(m: Record<string, string> | undefined | null): GoLiteral {
  return new GoLiteral(goStringMap(m));
}

/** v1.LabelSelector{MatchLabels:..., MatchExpressions:...}, as %#v prints a struct value. */
export function goLabelSelector(sel: Obj | undefined, pkg = 'v1'): GoLiteral {
  if (!sel) return new GoLiteral(`(*${pkg}.LabelSelector)(nil)`);
  const labels = obj(sel.matchLabels) ? goStringMap(strMap(sel.matchLabels)) : 'map[string]string(nil)';
  const exprs = Array.isArray(sel.matchExpressions)
    ? `[]${pkg}.LabelSelectorRequirement{${arr(sel.matchExpressions).map((e) => {
      const values = Array.isArray(e.values) ? `[]string{${(e.values as unknown[]).map((v) => goQuote(String(v))).join(', ')}}` : '[]string(nil)';
      return `${pkg}.LabelSelectorRequirement{Key:${goQuote(str(e.key))}, Operator:${goQuote(str(e.operator))}, Values:${values}}`;
    }).join(', ')}}`
    : `[]${pkg}.LabelSelectorRequirement(nil)`;
  return new GoLiteral(`${pkg}.LabelSelector{MatchLabels:${labels}, MatchExpressions:${exprs}}`);
}
