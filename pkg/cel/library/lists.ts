// Kubernetes' list library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum,
// min, max, indexOf, lastIndexOf on lists of comparable elements.
import type { CelFunc, CelList, CelValue } from '@bufbuild/cel';
import { cel } from '../runtime.js';
import { celCompare, celEquals } from './equality.js';

function extreme(list: CelList, name: string, sign: 1 | -1): CelValue {
  if (list.size === 0) throw new Error(`${name} called on empty list`);
  let best = list.get(0) as CelValue;
  for (const v of list) if (celCompare(v, best) * sign > 0) best = v;
  return best;
}

function sum(list: CelList): CelValue {
  let acc: CelValue = 0n;
  let first = true;
  for (const v of list) {
    if (first) acc = v;
    else if (typeof acc === 'bigint' && typeof v === 'bigint') acc = acc + v;
    else if (typeof acc === 'number' && typeof v === 'number') acc = acc + v;
    else throw new Error('no such overload');
    first = false;
  }
  return acc;
}

export function listFunctions(): CelFunc[] {
  const { celMethod, CelScalar, listType } = cel();
  const { DYN, BOOL, INT } = CelScalar;
  const LIST = listType(DYN);
  return [
    celMethod('isSorted', LIST, [], BOOL, function () {
      let prev: CelValue | undefined;
      for (const v of this) {
        if (prev !== undefined && celCompare(prev, v) > 0) return false;
        prev = v;
      }
      return true;
    }),
    celMethod('sum', LIST, [], DYN, function () { return sum(this); }),
    celMethod('min', LIST, [], DYN, function () { return extreme(this, 'min', -1); }),
    celMethod('max', LIST, [], DYN, function () { return extreme(this, 'max', 1); }),
    celMethod('indexOf', LIST, [DYN], INT, function (x) {
      for (let i = 0; i < this.size; i++) if (celEquals(this.get(i) as CelValue, x)) return BigInt(i);
      return -1n;
    }),
    celMethod('lastIndexOf', LIST, [DYN], INT, function (x) {
      for (let i = this.size - 1; i >= 0; i--) if (celEquals(this.get(i) as CelValue, x)) return BigInt(i);
      return -1n;
    }),
  ];
}

