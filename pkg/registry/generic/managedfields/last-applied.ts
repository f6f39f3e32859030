// kubectl's last-applied-configuration annotation, which server-side apply keeps up to
// date for kubectl's manager so that a later client-side apply still diffs correctly.
import { isPlainObject } from '../../../runtime/object.js';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** The annotation kubectl keeps: the applied configuration, without the annotation itself. */
export function buildLastApplied(config: Record<string, unknown>): string {
  const copy = structuredClone(config);
  const meta = isPlainObject(copy.metadata) ? copy.metadata : undefined;
  if (meta && isPlainObject(meta.annotations)) delete meta.annotations[lastAppliedAnnotation];
  return `${sortedJson(copy)}\n`;
}

function sortedJson(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) => (isPlainObject(val)
    ? Object.fromEntries(Object.keys(val).sort().map((k) => [k, val[k]])) : val));
}
