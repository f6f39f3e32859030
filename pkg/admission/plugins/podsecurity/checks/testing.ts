// Runs one check, by ID, as a given policy version would.
import { defaultChecks } from '../evaluator.js';
import type { CheckResult, Json, PodMeta } from './types.js';

export function run(id: string, spec: Json, meta: PodMeta = {}, version = 28): CheckResult | undefined {
  const check = defaultChecks.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id}`);
  const vc = [...check.versions].reverse().find((v) => v.minimumVersion <= version);
  return vc?.check(meta, spec);
}

export const c = (name: string, securityContext?: Json, extra: Json = {}): Json => ({ name, image: 'x', ...(securityContext ? { securityContext } : {}), ...extra });
