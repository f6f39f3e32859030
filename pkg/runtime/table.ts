// Table output (meta.k8s.io/v1 Table) for `kubectl get`. A resource declares its columns;
// the default is upstream's Name / Created At.
import type { KubeObject } from './object.js';

export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

export interface TableConvertor {
  columns: TableColumnDefinition[];
  /** One cell per column, in order. */
  cells(obj: KubeObject): unknown[];
  /** Row order of a list when upstream's printer sorts it (otherwise the list's order). */
  sortRows?(a: KubeObject, b: KubeObject): number;
}

export function column(name: string, type: TableColumnDefinition['type'], description: string,
  opts: { format?: string; priority?: number } = {}): TableColumnDefinition {
  return { name, type, format: opts.format ?? (name === 'Name' ? 'name' : ''), description, priority: opts.priority ?? 0 };
}

/** The Name column most built-in tables start with, described as upstream's printers describe it. */
export const nameColumn = (): TableColumnDefinition => column('Name', 'string', 'Name must be unique within a namespace.');

/** The Age column, described as upstream's printers describe it. */
export const ageColumn = (): TableColumnDefinition =>
  column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.');

export const defaultTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? null],
};

/** Age as kubectl prints it (upstream's duration.HumanDuration). */
export function humanAge(timestamp: string | null | undefined, now = Date.now()): string {
  if (!timestamp) return '<unknown>';
  const secs = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (secs < 120) return `${secs}s`;
  const mins = Math.floor(secs / 60);
  if (mins < 10) return secs % 60 === 0 ? `${mins}m` : `${mins}m${secs % 60}s`;
  if (mins < 180) return `${mins}m`;
  const hours = Math.floor(mins / 60);
  if (hours < 8) return mins % 60 === 0 ? `${hours}h` : `${hours}h${mins % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (years < 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
