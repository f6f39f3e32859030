// The comparison tree go-cmp's reporter formats (its valueNode): one node per struct
// field, slice element, map entry and pointer indirection, with counts of equal and
// differing leaves and the tree's depth, built the way cmp.Equal walks Go values.
import type { GoType, GoValue } from './gotype.js';
import { quantityEqual } from './gocmp-value.js';

/** undefined: no value on that side (a slice element or map entry only one side has). */
export type Side = GoValue | undefined;

export interface ValueNode {
  type: GoType;
  x: Side;
  y: Side;
  numSame: number;
  numDiff: number;
  numCompared: number;
  numChildren: number;
  maxDepth: number;
  /** Struct fields (key = Go name), slice elements (no key), map entries (key = Go map key). */
  records: Array<{ key?: string; node: ValueNode }>;
  /** The pointed-to value of a non-nil pointer pair. */
  value?: ValueNode;
  parentKind?: GoType['kind'];
}

function node(type: GoType, x: Side, y: Side, parentKind?: GoType['kind']): ValueNode {
  return { type, x, y, numSame: 0, numDiff: 0, numCompared: 0, numChildren: 0, maxDepth: 0, records: [], parentKind };
}

function leaf(n: ValueNode, equal: boolean): void {
  if (equal) n.numSame++; else n.numDiff++;
}

function adopt(parent: ValueNode, child: ValueNode): void {
  parent.numSame += child.numSame;
  parent.numDiff += child.numDiff;
  parent.numCompared += child.numCompared;
  parent.numChildren += child.numChildren + 1;
  parent.maxDepth = Math.max(parent.maxDepth, child.maxDepth + 1);
}

/** cmp.Equal's walk of x and y, as a report tree. */
export function compare(type: GoType, x: GoValue, y: GoValue): ValueNode {
  const root = node(type, x, y);
  walk(root);
  return root;
}

function walk(n: ValueNode): void {
  const { type: t, x, y } = n;
  if (x === undefined || y === undefined) return leaf(n, false);
  switch (t.kind) {
    case 'struct': {
      if (t.name === 'resource.Quantity') {
        n.numCompared++;
        return leaf(n, quantityEqual(x, y));
      }
      for (const f of t.fields) {
        const c = node(f.type, (x as Map<string, GoValue>).get(f.go) ?? null, (y as Map<string, GoValue>).get(f.go) ?? null, 'struct');
        walk(c);
        n.records.push({ key: f.go, node: c });
        adopt(n, c);
      }
      return;
    }
    case 'ptr': {
      if (x === null || y === null) return leaf(n, x === y);
      const c = node(t.elem, x, y, 'ptr');
      walk(c);
      n.value = c;
      adopt(n, c);
      return;
    }
    case 'map': {
      if (x === null || y === null) return leaf(n, x === y);
      const mx = x as Map<string, GoValue>;
      const my = y as Map<string, GoValue>;
      for (const k of [...new Set([...mx.keys(), ...my.keys()])].sort()) {
        const c = node(t.elem, mx.get(k), my.get(k), 'map');
        walk(c);
        n.records.push({ key: k, node: c });
        adopt(n, c);
      }
      return;
    }
    case 'slice': {
      if (x === null || y === null) return leaf(n, x === y);
      const xs = x as GoValue[];
      const ys = y as GoValue[];
      for (const [ix, iy] of editScript(t.elem, xs, ys)) {
        const c = node(t.elem, ix < 0 ? undefined : xs[ix], iy < 0 ? undefined : ys[iy], 'slice');
        walk(c);
        n.records.push({ node: c });
        adopt(n, c);
      }
      return;
    }
    default:
      return leaf(n, x === y);
  }
}

/**
 * Pairs of indexes (-1 = only on the other side) aligning two slices. go-cmp's
 * diff.Difference pairs equal elements, and unequal ones as "modified" when similar
 * (same leaves + 1 >= differing leaves); this finds the alignment with the most equal
 * then similar pairs (an optimal search where go-cmp's is greedy: the same result for
 * appends, removals and in-place changes). Within a gap removals come before insertions.
 */
function editScript(elem: GoType, xs: GoValue[], ys: GoValue[]): Array<[number, number]> {
  const score = xs.map((a) => ys.map((b) => {
    const r = compare(elem, a, b);
    if (r.numDiff === 0) return 3;
    return r.numSame + 1 >= r.numDiff ? 1 : -1;
  }));
  const best: number[][] = Array.from({ length: xs.length + 1 }, () => new Array<number>(ys.length + 1).fill(0));
  for (let i = xs.length - 1; i >= 0; i--) {
    for (let j = ys.length - 1; j >= 0; j--) {
      const pair = score[i][j] > 0 ? score[i][j] + best[i + 1][j + 1] : -Infinity;
      best[i][j] = Math.max(pair, best[i + 1][j], best[i][j + 1]);
    }
  }
  const out: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < xs.length || j < ys.length) {
    if (i < xs.length && j < ys.length && score[i][j] > 0 && best[i][j] === score[i][j] + best[i + 1][j + 1]) {
      out.push([i++, j++]);
    } else if (i < xs.length && (j >= ys.length || best[i][j] === best[i + 1][j])) {
      out.push([i++, -1]);
    } else {
      out.push([-1, j++]);
    }
  }
  return out;
}
