// --feature-gates as upstream's featuregate package parses it: `Name=bool` pairs; an
// unknown name, a value that is not a bool, or a locked gate set away from its default is
// a start-up error with upstream's words. This package sits at the bottom of the import
// graph so that every layer reads the same gates.
import { allAlphaGate, allBetaGate, knownFeatures } from './known.js';

export class FeatureGates {
  private readonly values = new Map<string, boolean>();

  /** Parses `A=true,B=false`; throws on the first refused pair. */
  set(spec: string): void {
    for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      const raw = eq < 0 ? '' : part.slice(eq + 1).trim();
      const known = knownFeatures[name];
      if (!known) throw new Error(`unrecognized feature gate: ${name}`);
      const value = parseGoBool(raw);
      if (value === undefined) throw new Error(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
      if (known.locked && value !== known.default) {
        throw new Error(`cannot set feature gate ${name} to ${value}, feature is locked to ${known.default}`);
      }
      this.values.set(name, value);
    }
  }

  /** An explicit setting wins; then AllAlpha (AllBeta) for an alpha (beta) gate; then the default. */
  enabled(name: string): boolean {
    const explicit = this.values.get(name);
    if (explicit !== undefined) return explicit;
    const spec = knownFeatures[name];
    if (!spec) return false;
    const all = spec.stage === 'ALPHA' ? this.values.get(allAlphaGate) : spec.stage === 'BETA' ? this.values.get(allBetaGate) : undefined;
    return all ?? spec.default;
  }

  /** No gate set: every gate has its default (what build-time products such as pkg/generated assume). */
  atDefaults(): boolean {
    return this.values.size === 0;
  }

  /** Gates set explicitly to a GA or deprecated gate: upstream warns that they will go away. */
  settingsToWarnAbout(): string[] {
    return [...this.values.keys()].filter((n) => ['GA', 'DEPRECATED'].includes(knownFeatures[n]!.stage))
      .map((n) => `Setting ${knownFeatures[n]!.stage} feature gate ${n}=${this.values.get(n)}. It will be removed in a future release.`);
  }
}

/** Go's strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

let gates = new FeatureGates();
export function featureGates(): FeatureGates {
  return gates;
}
export function resetFeatureGates(spec = ''): FeatureGates {
  gates = new FeatureGates();
  if (spec) gates.set(spec);
  return gates;
}
