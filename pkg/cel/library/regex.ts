// Kubernetes' regex library (library/regex.go): string.find(re) returns the first match
// or '', string.findAll(re[, limit]) returns the matches (a negative limit: all).
import type { CelFunc } from '@bufbuild/cel';
import { cel } from '../runtime.js';

const cache = new Map<string, RegExp>();
function compile(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    try {
      re = new RegExp(pattern, 'gu');
    } catch (err) {
      throw new Error(`error parsing regexp: ${(err as Error).message}`);
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  re.lastIndex = 0;
  return re;
}

function findAll(s: string, pattern: string, limit: number): string[] {
  if (limit === 0) return [];
  const out: string[] = [];
  for (const m of s.matchAll(compile(pattern))) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

export function regexFunctions(): CelFunc[] {
  const { celMethod, CelScalar, listType } = cel();
  const { STRING, INT } = CelScalar;
  return [
    celMethod('find', STRING, [STRING], STRING, function (p) { return findAll(this, p, 1)[0] ?? ''; }),
    celMethod('findAll', STRING, [STRING], listType(STRING), function (p) { return findAll(this, p, -1); }),
    celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (p, n) { return findAll(this, p, Number(n)); }),
  ];
}
