// The class a new object gets when it names none (DefaultIngressClass, DefaultStorageClass):
// among the classes marked default, the most recently created, and on equal timestamps
// the lowest name, so several defaults no longer block creation (upstream since 1.26/1.27).
import type { KubeObject } from '../runtime/object.js';

export function newestDefaultClass(classes: KubeObject[], isDefault: (c: KubeObject) => boolean): KubeObject | undefined {
  const created = (c: KubeObject): number => Date.parse(c.metadata.creationTimestamp ?? '') || 0;
  return classes.filter(isDefault).sort((x, y) => created(y) - created(x) || ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1))[0];
}
