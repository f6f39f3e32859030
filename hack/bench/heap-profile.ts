// Reads a V8 sampling heap profile (.heapprofile, as heap-sampler.ts writes it): the bytes
// it stands for, and those bytes by allocating function (self), by every function on the
// allocating stack (incl), or by the allocating function's file (file).
import { readFileSync } from 'node:fs';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { callFrame: CallFrame; selfSize: number; children: ProfileNode[] }
export interface HeapProfile { head: ProfileNode }

export const readHeapProfile = (file: string): HeapProfile => JSON.parse(readFileSync(file, 'utf8')) as HeapProfile;

const shortUrl = (cf: CallFrame): string => cf.url.replace(/^.*?\/(dist|node_modules)\//, '$1/');
const frameName = (cf: CallFrame): string => `${cf.functionName || '(anonymous)'} ${shortUrl(cf)}:${cf.lineNumber + 1}`;
/** A builtin (no file) is named by itself: `Map`, `JSON.stringify`'s callers' `(native stringify)`. */
const fileName = (cf: CallFrame): string => shortUrl(cf) || `(native ${cf.functionName})`;

/**
 * Total bytes, and bytes per function name (self: where allocated; incl: anywhere on the
 * stack, once per stack; file: the allocating function's file).
 */
export function heapByFunction(p: HeapProfile, mode: 'self' | 'incl' | 'file'): { total: number; byFunction: Map<string, number> } {
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, path: string[]): void => {
    const name = mode === 'file' ? fileName(node.callFrame) : frameName(node.callFrame);
    total += node.selfSize;
    const here = mode === 'incl' && !path.includes(name) ? [...path, name] : path;
    if (mode !== 'incl') byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    else for (const f of here) byFunction.set(f, (byFunction.get(f) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c, here);
  };
  walk(p.head, []);
  return { total, byFunction };
}

// Run: node dist/hack/bench/heap-profile.js FILE [self|incl|file] [top] [--per=N]: the top
// functions, in per cent of the total, and in bytes per operation when --per gives the count.
if (process.argv[1]?.endsWith('heap-profile.js')) {
  const [file, mode = 'self', top = '40'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const per = Number(process.argv.find((a) => a.startsWith('--per='))?.slice('--per='.length) ?? 0);
  const { total, byFunction } = heapByFunction(readHeapProfile(file!), mode === 'incl' || mode === 'file' ? mode : 'self');
  console.log(`total ${(total / 1e6).toFixed(1)} MB${per ? `, ${(total / per / 1024).toFixed(1)} KB per operation` : ''}`);
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    console.log(`${((bytes / total) * 100).toFixed(1).padStart(5)}%${per ? ` ${(bytes / per).toFixed(0).padStart(7)} B` : ''}  ${name}`);
  }
}
