// Converts objects and lists into meta.k8s.io Table, from the resource's declared
// columns (or upstream's default Name / Created At).
import type { KubeList, KubeObject } from '../../runtime/object.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { defaultTable } from '../../runtime/table.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function partialObjectMetadata(obj: KubeObject, version: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

export function toTable(def: ResourceDef, input: KubeObject | KubeList, version: string, include: IncludeObject,
  withColumns = true): Record<string, unknown> {
  const table = def.table ?? defaultTable;
  const isList = Array.isArray((input as KubeList).items);
  let items = isList ? (input as KubeList).items : [input as KubeObject];
  if (isList && table.sortRows) items = [...items].sort(table.sortRows);
  const rows = items.map((obj) => {
    const row: Record<string, unknown> = { cells: table.cells(obj) };
    if (include === 'Object') row.object = obj;
    else if (include === 'Metadata') row.object = partialObjectMetadata(obj, version);
    return row;
  });
  const out: Record<string, unknown> = {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: isList ? { ...(input as KubeList).metadata } : { resourceVersion: (input as KubeObject).metadata.resourceVersion },
  };
  if (withColumns) out.columnDefinitions = table.columns;
  out.rows = rows;
  return out;
}
