// Where a JSON or merge patch's float-written numbers (`3.0`) land in the patched object:
// upstream's patch libraries keep a patch value's raw JSON, so the typed decode of the
// result meets `3.0` as written and refuses it for an integer field.
import type { FloatLiteral } from '../../openapi/float-literals.js';
import { floatLiterals } from '../fieldvalidation/index.js';

export function patchResultFloats(patchType: 'json' | 'merge', patch: string): FloatLiteral[] {
  const floats = floatLiterals(patch);
  if (patchType === 'merge' || floats.length === 0) return floats;
  // A JSON patch: a literal inside operation i's value lands under that operation's path
  // (add and replace; an append (`-`) or a later move may put it elsewhere, where the
  // number found no longer matches and the mark is not placed).
  let ops: unknown;
  try {
    ops = JSON.parse(patch);
  } catch {
    return [];
  }
  if (!Array.isArray(ops)) return [];
  const out: FloatLiteral[] = [];
  for (const f of floats) {
    const [index, field, ...rest] = f.path;
    const op = (ops as Array<Record<string, unknown>>)[index as number];
    if (field !== 'value' || typeof op !== 'object' || op === null || (op.op !== 'add' && op.op !== 'replace')) continue;
    if (typeof op.path !== 'string' || !op.path.startsWith('/')) continue;
    const target = op.path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    out.push({ path: [...target, ...rest], text: f.text });
  }
  return out;
}
