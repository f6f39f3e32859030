// A pflag-compatible command-line parser: `--name=value`, `--name value`, bare
// `--name` for booleans. Flags we do not implement are accepted with a warning so a
// kube-apiserver command line can be reused unchanged; malformed values are errors.

export { parseDurationFlag } from '../util/duration.js';

export type FlagType = 'string' | 'bool' | 'int' | 'duration' | 'stringList' | 'stringArray';

export interface FlagSpec {
  type: FlagType;
  default?: string;
}

export interface ParsedFlags {
  values: Map<string, string[]>;
  unknown: string[];
  positional: string[];
}

export function parseFlags(argv: string[], specs: Record<string, FlagSpec>): ParsedFlags {
  const values = new Map<string, string[]>();
  const unknown: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-' ) { positional.push(arg); continue; }
    if (arg === '--') { positional.push(...argv.slice(i + 1)); break; }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    let value = eq >= 0 ? body.slice(eq + 1) : undefined;
    const spec = specs[name];
    if (!spec) {
      // Unknown flag: take a following non-flag word as its value, as pflag would for a string.
      if (value === undefined && i + 1 < argv.length && !argv[i + 1].startsWith('-')) value = argv[++i];
      unknown.push(name);
      continue;
    }
    if (value === undefined) {
      if (spec.type === 'bool') value = 'true';
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new Error(`flag needs an argument: --${name}`);
    }
    const list = values.get(name) ?? [];
    list.push(value);
    values.set(name, list);
  }
  return { values, unknown, positional };
}

export function parseBoolFlag(name: string, v: string): boolean {
  if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(v)) return true;
  if (['false', '0', 'f', 'F', 'FALSE', 'False'].includes(v)) return false;
  throw new Error(`invalid argument "${v}" for "--${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

export function parseIntFlag(name: string, v: string): number {
  if (!/^-?\d+$/.test(v)) throw new Error(`invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`);
  return Number(v);
}

