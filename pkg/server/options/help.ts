// `kube-apiserver --help` in pflag's layout: per section "<Name> flags:", then one line
// per flag sorted by name, usage aligned in one column (no wrapping: upstream wraps only
// on a terminal, and envtest reads the help through a pipe).
import type { FlagSection, FlagSpec } from '../flags.js';

const description = `The Kubernetes API server (kube-apiserver-ts: a drop-in replacement written in
TypeScript on Node.js, backed by etcd) serves the REST API of the cluster's objects,
validates and stores them, and is the front end through which every other component
reads and changes the cluster's shared state.`;

export function helpText(sections: ReadonlyArray<FlagSection<object>>): string {
  let out = `${description}\n\nUsage:\n  kube-apiserver [flags]\n`;
  for (const section of sections) {
    const flags = section.flags.filter((f) => !f.deprecated);
    if (flags.length === 0) continue;
    out += `\n${section.name[0].toUpperCase()}${section.name.slice(1)} flags:\n\n${flagUsages(flags)}`;
  }
  return out;
}

/** pflag's FlagUsagesWrapped(0). */
function flagUsages(flags: FlagSpec[]): string {
  const rows = [...flags].sort((a, b) => (a.name < b.name ? -1 : 1)).map((f) => {
    let left = f.shorthand ? `  -${f.shorthand}, --${f.name}` : `      --${f.name}`;
    if (f.type !== 'bool') left += ` ${f.type}`;
    if (f.noOptDefault !== undefined && !(f.type === 'bool' && f.noOptDefault === 'true')) left += `[=${f.noOptDefault}]`;
    return { left, right: f.usage + defaultSuffix(f) };
  });
  // pflag pads every left part to the widest one plus three spaces.
  const widest = Math.max(...rows.map((r) => r.left.length));
  return rows.map((r) => `${r.left}${' '.repeat(widest + 3 - r.left.length)}${r.right}\n`).join('');
}

/** pflag prints a default unless it is the type's zero value; strings quoted, lists bracketed. */
function defaultSuffix(f: FlagSpec): string {
  const d = f.default;
  if (d === undefined || d === '' || d === 'false' || d === '0' || (f.type === 'duration' && d === '0s')) return '';
  if (f.type === 'string') return ` (default ${JSON.stringify(d)})`;
  if (f.type === 'strings' || f.type === 'stringArray') return ` (default [${d}])`;
  return ` (default ${d})`;
}
