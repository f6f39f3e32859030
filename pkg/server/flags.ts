// A pflag-compatible command line: `--name=value`, `--name value`, bare `--name` for
// booleans, `-x` shorthands. Each flag is declared once as a FlagSpec (name, type, default,
// one-line usage) inside its section (pkg/server/options/); the parser, the readers'
// defaults and `--help` all come from that one table.

import { parseDurationFlag } from '../util/duration.js';

export { parseDurationFlag };

/** pflag's type names, as `--help` prints them after the flag (booleans print none). */
export type FlagType =
  | 'bool' | 'string' | 'strings' | 'stringArray' | 'int' | 'float' | 'duration' | 'ip' | 'cidrs'
  | 'mapStringBool' | 'mapStringString' | 'stringToString' | 'namedCertKey' | 'portRange'
  | 'Level' | 'pattern=N,...' | 'quantity' | 'version';

export interface FlagSpec {
  name: string;
  type: FlagType;
  /** The value used when the flag is absent, spelled as `--help` shows it (`5m0s`, `a,b`). */
  default?: string;
  /** One line for `--help`. */
  usage: string;
  /** One-letter alias (`-v`, `-h`). */
  shorthand?: string;
  /** A bare `--name` means this value (pflag's NoOptDefVal): `--version` is `--version=true`. */
  noOptDefault?: string;
  /** Upstream's flag that this server accepts but does not act on: a warning at start. */
  notImplemented?: boolean;
  /** pflag's MarkDeprecated: hidden from --help, and using it prints this after "has been deprecated, ". */
  deprecated?: string;
}

/** One of upstream's named flag sets: `--help` prints it as "<Name> flags:". */
export interface FlagSection<T> {
  name: string;
  flags: FlagSpec[];
  read(values: FlagValues): T;
}

export interface ParsedFlags {
  values: Map<string, string[]>;
  positional: string[];
}

/** pflag's parse errors (unknown flag, missing argument), worded as pflag words them. */
export class FlagParseError extends Error {}

export function parseFlags(argv: string[], specs: FlagSpec[]): ParsedFlags {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShorthand = new Map(specs.filter((s) => s.shorthand).map((s) => [s.shorthand!, s]));
  const values = new Map<string, string[]>();
  const positional: string[] = [];
  const set = (spec: FlagSpec, value: string) => values.set(spec.name, [...(values.get(spec.name) ?? []), value]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-') { positional.push(arg); continue; }
    if (arg === '--') { positional.push(...argv.slice(i + 1)); break; }
    if (arg.startsWith('--')) {
      const body = arg.slice(2);
      const eq = body.indexOf('=');
      const name = eq >= 0 ? body.slice(0, eq) : body;
      const spec = byName.get(name);
      if (!spec) throw new FlagParseError(`unknown flag: --${name}`);
      if (eq >= 0) set(spec, body.slice(eq + 1));
      else if (spec.type === 'bool') set(spec, 'true');
      else if (spec.noOptDefault !== undefined) set(spec, spec.noOptDefault);
      else if (i + 1 < argv.length) set(spec, argv[++i]);
      else throw new FlagParseError(`flag needs an argument: --${name}`);
      continue;
    }
    // Shorthands: -abc is -a -b -c; one that takes a value takes the rest (after an
    // optional '=') or the next argument.
    const shorthands = arg.slice(1);
    for (let j = 0; j < shorthands.length; j++) {
      const c = shorthands[j];
      const spec = byShorthand.get(c);
      if (!spec) throw new FlagParseError(`unknown shorthand flag: '${c}' in -${shorthands}`);
      const rest = shorthands.slice(j + 1);
      if (rest.startsWith('=')) { set(spec, rest.slice(1)); break; }
      if (spec.type === 'bool') { set(spec, 'true'); continue; }
      if (rest !== '') { set(spec, rest); break; }
      if (i + 1 < argv.length) { set(spec, argv[++i]); break; }
      throw new FlagParseError(`flag needs an argument: '${c}' in -${shorthands}`);
    }
  }
  return { values, positional };
}

/** Typed reads of parsed flags; an absent flag reads as its spec's default. */
export class FlagValues {
  private readonly specs: Map<string, FlagSpec>;

  constructor(private readonly parsed: Map<string, string[]>, specs: FlagSpec[]) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  /** Whether the command line set the flag. */
  has(name: string): boolean {
    this.spec(name);
    return this.parsed.has(name);
  }

  /** The last value given, else the default. */
  string(name: string): string | undefined {
    return this.parsed.get(name)?.at(-1) ?? this.spec(name).default;
  }

  /** pflag's StringSlice: comma-separated, repeatable. */
  list(name: string): string[] {
    const given = this.parsed.get(name) ?? (this.spec(name).default !== undefined ? [this.spec(name).default!] : []);
    return given.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  }

  /** pflag's StringArray: one value per occurrence, commas kept. */
  array(name: string): string[] {
    this.spec(name);
    return this.parsed.get(name) ?? [];
  }

  bool(name: string): boolean {
    return parseBoolFlag(name, this.string(name) ?? 'false');
  }

  int(name: string): number {
    return parseIntFlag(name, this.string(name) ?? '0');
  }

  float(name: string): number {
    return parseFloatFlag(name, this.string(name) ?? '0');
  }

  /** Milliseconds. */
  duration(name: string): number {
    return parseDurationFlag(name, this.string(name) ?? '0');
  }

  /** pflag's mapStringString: k=v pairs, comma-separated or repeated. */
  keyValues(name: string, valueOptional = false): Array<[string, string]> {
    return this.list(name).map((kv) => {
      const i = kv.indexOf('=');
      if (i < 0 && !valueOptional) throw new Error(`invalid argument "${kv}" for "--${name}" flag: ${kv} must be formatted as key=value`);
      return i < 0 ? [kv, ''] : [kv.slice(0, i), kv.slice(i + 1)];
    });
  }

  private spec(name: string): FlagSpec {
    const spec = this.specs.get(name);
    // A read of an undeclared flag is a programming error: every flag is declared in its section.
    if (!spec) throw new Error(`flag --${name} is not declared`);
    return spec;
  }
}

export function parseBoolFlag(name: string, v: string): boolean {
  if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(v)) return true;
  if (['false', '0', 'f', 'F', 'FALSE', 'False'].includes(v)) return false;
  throw new Error(`invalid argument "${v}" for "--${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

export function parseFloatFlag(name: string, v: string): number {
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n)) throw new Error(`invalid argument "${v}" for "--${name}" flag: strconv.ParseFloat: parsing "${v}": invalid syntax`);
  return n;
}

export function parseIntFlag(name: string, v: string): number {
  if (!/^-?\d+$/.test(v)) throw new Error(`invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`);
  return Number(v);
}
