// resource.Quantity where exactness matters (admission limits, overhead equality), as
// plain values: BigInt nano-units and the format, parsed and printed by pkg/util/quantity,
// so sums and comparisons of "100m" + "0.2" have no float error and a value prints as
// upstream prints it ("1000m" -> "1", "1024Mi" -> "1Gi", "0.5" -> "500m").
// quantity.ts keeps the float view validation uses.
import { canonicalQuantityString, Quantity as ExactQuantity, type QuantityFormat } from '../../util/quantity/index.js';

export interface Quantity { nano: bigint; format: QuantityFormat }

export function parse(v: unknown): Quantity | undefined {
  const q = ExactQuantity.parse(v);
  return q && { nano: q.nanos, format: q.format };
}

/** Quantity.String(): the canonical form in the quantity's own format. */
export function canonical(q: Quantity): string {
  return new ExactQuantity(q.nano, q.format).toString();
}

/**
 * A quantity copied from a stored object (a LimitRange default, a RuntimeClass overhead)
 * as upstream writes it: the string its decode keeps; the value itself when it does not parse.
 */
export function canonicalQuantity(v: unknown): string {
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
  return (text === undefined ? undefined : canonicalQuantityString(text)) ?? String(v);
}

export function add(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.format };
}
