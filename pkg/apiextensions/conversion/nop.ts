// Strategy None: the stored object is served in any version with only its apiVersion
// rewritten (upstream's nopConverter).
import type { KubeObject } from '../../runtime/object.js';
import type { Converter } from './types.js';

/** A shallow copy with the new apiVersion; objects already in that version are returned as they are. */
export function relabel(obj: KubeObject, toAPIVersion: string): KubeObject {
  return obj.apiVersion === toAPIVersion ? obj : { ...obj, apiVersion: toAPIVersion };
}

export const nopConverter: Converter = {
  convert: async (objects, toAPIVersion) => objects.map((o) => relabel(o, toAPIVersion)),
  close: () => undefined,
};
