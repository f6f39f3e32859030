// The part of an object a write may have changed, for checks that need not walk what was
// decoded and checked before. A JSON merge patch is its own region: its result differs
// from the stored object only under the patch's keys (a nested object merges into the
// object there; any other value, null included, replaces or removes it whole).
import { isPlainObject } from './object.js';

/** `true`: anything may have changed. An object: only its keys, each as region of that key's value. */
export type ChangedRegion = true | Readonly<Record<string, unknown>>;

/** The region under `key`; undefined when nothing there changed. */
export function regionAt(region: ChangedRegion, key: string): ChangedRegion | undefined {
  if (region === true) return true;
  if (!Object.prototype.hasOwnProperty.call(region, key)) return undefined;
  const sub = region[key];
  return isPlainObject(sub) ? sub : true;
}
