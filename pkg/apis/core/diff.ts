// The change list appended to "pod updates may not change fields other than ...".
// Upstream prints a go-cmp diff of its internal Go structs; we print each changed
// field by its JSON path, old value with "-" and new value with "+", so the reader
// sees the same information (the exact go-cmp layout is not reproduced).
import { isPlainObject } from '../../runtime/object.js';
import { deepEqual } from '../validation/objectmeta.js';

export function podSpecDiff(old: unknown, cur: unknown): string {
  const lines: string[] = [];
  walk('spec', old, cur, lines);
  return lines.map((l) => `${l}\n`).join('');
}

function walk(path: string, a: unknown, b: unknown, out: string[]): void {
  if (deepEqual(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) walk(`${path}.${k}`, ao[k], bo[k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => walk(`${path}[${i}]`, x, b[i], out));
    return;
  }
  if (a !== undefined) out.push(`- ${path}: ${JSON.stringify(a)}`);
  if (b !== undefined) out.push(`+ ${path}: ${JSON.stringify(b)}`);
}
