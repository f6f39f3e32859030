// What a quota should record as used, measured from the objects themselves (upstream's
// CalculateUsage): for each evaluator measuring something the quota limits, the sum of
// the usage of the objects in the quota's scopes, zero where nothing is used.
import type { KubeObject } from '../runtime/object.js';
import type { Evaluator, ScopeSelector } from './evaluator/interfaces.js';
import { add, mask, zeros, type ResourceList } from './resources.js';

export interface Measured {
  evaluator: Evaluator;
  objects: KubeObject[];
}

export function calculateUsage(hardNames: string[], selectors: ScopeSelector[], measured: Measured[], now = Date.now()): ResourceList {
  let used: ResourceList = new Map();
  for (const { evaluator: e, objects } of measured) {
    const names = e.matchingResources(hardNames);
    if (names.length === 0) continue;
    let sum = zeros(names);
    for (const obj of objects) {
      if (selectors.every((s) => e.matchesScope(s, obj))) sum = add(sum, e.usage(obj, now));
    }
    used = add(used, mask(sum, names));
  }
  return used;
}
