// Cell helpers shared by the workload tables (upstream's printers.go).
import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelectorObject } from '../meta/labels.js';
import { arr, obj, str, strMap, type Obj } from './types.js';
import { column, type TableColumnDefinition } from '../../runtime/table.js';

/** The wide columns of every pod-template controller's table; their cells are templateContainers'. */
export function templateColumns(): TableColumnDefinition[] {
  return [
    column('Containers', 'string', 'Names of each container in the template.', { priority: 1 }),
    column('Images', 'string', 'Images referenced by each container in the template.', { priority: 1 }),
  ];
}

/** Container names and images of a pod template, comma-joined. */
export function templateContainers(tpl: unknown): { names: string; images: string } {
  const containers = arr(obj(obj(tpl)?.spec)?.containers);
  return { names: containers.map((c) => str(c.name)).join(','), images: containers.map((c) => str(c.image)).join(',') };
}

/** labels.FormatLabels: sorted k=v pairs, or <none>. */
export function formatLabels(m: unknown): string {
  const s = labelSelectorFromSet(strMap(m)).toString();
  return s || '<none>';
}

/** metav1.FormatLabelSelector: <none> when missing or empty. */
export function formatLabelSelector(sel: unknown): string {
  const o = obj(sel);
  if (!o) return '<none>';
  const s = labelSelectorFromObject(o as LabelSelectorObject).toString();
  return s || '<none>';
}

export function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

export function section(o: Obj, k: string): Obj {
  return obj(o[k]) ?? {};
}
