// Tables of custom resources from the version's additionalPrinterColumns (upstream:
// apiextensions-apiserver registry/customresource/tableconvertor): Name first, then each
// column's first JSONPath result typed by the column; without columns, Age.
import type { KubeObject } from '../../../runtime/object.js';
import { column, humanAge, nameColumn, type TableColumnDefinition, type TableConvertor } from '../../../runtime/table.js';
import type { CRDColumn } from '../../../apis/apiextensions/types.js';
import { parseJSONPath, type JSONPath } from '../../../util/jsonpath/index.js';

const creationTimestampDescription = 'CreationTimestamp is a timestamp representing the server time when this object was created. '
  + 'It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. '
  + 'It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. '
  + 'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const defaultColumns: CRDColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: creationTimestampDescription }];

type ColumnType = TableColumnDefinition['type'];
const columnTypes = new Set<ColumnType>(['string', 'integer', 'number', 'boolean', 'date']);

export function customResourceTable(columns: CRDColumn[] | undefined): TableConvertor {
  const declared = columns && columns.length > 0 ? columns : defaultColumns;
  const parsed = declared.map((c) => {
    let path: JSONPath | undefined;
    try { path = parseJSONPath(c.jsonPath ?? ''); } catch { path = undefined; }
    const type: ColumnType = columnTypes.has(c.type as ColumnType) ? (c.type as ColumnType) : 'string';
    const description = c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath ?? ''}`;
    return { def: column(c.name ?? '', type, description, { format: c.format ?? '', priority: c.priority ?? 0 }), path };
  });
  return {
    columns: [nameColumn(), ...parsed.map((p) => p.def)],
    cells: (obj: KubeObject) => [obj.metadata.name ?? '', ...parsed.map((p) => cell(p.def.type, p.path?.find(obj)[0]))],
  };
}

/** One cell as upstream types it; a value of the wrong type shows as empty. */
function cell(type: ColumnType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      // Upstream prints dates as the time since, as kubectl's Age columns read.
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : humanAge(value);
  }
}
