// The 409 an Apply gets when it would change fields other managers own, worded as
// upstream's NewConflictError: one cause per field, the message grouped by manager.
import { StatusError, type StatusCause } from '../../../runtime/errors.js';
import { compareStrings, pathString, type Path } from './path.js';

export interface Conflict { managerId: string; path: Path }

/** `"kubectl"`, `"ctl" using v1`, `"ctl" with subresource "status" using v1`. */
export function printManager(id: string): string {
  let e: { manager?: string; operation?: string; apiVersion?: string; subresource?: string; time?: string };
  try {
    e = JSON.parse(id) as typeof e;
  } catch {
    return JSON.stringify(id);
  }
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') return e.time ? `${s} using ${e.apiVersion ?? ''} at ${e.time}` : `${s} using ${e.apiVersion ?? ''}`;
  return s;
}

export function conflictError(conflicts: Conflict[]): StatusError {
  const sorted = [...conflicts].sort((a, b) => compareStrings(a.managerId, b.managerId));
  const causes: StatusCause[] = sorted.map((c) => ({
    reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.managerId)}`, field: pathString(c.path),
  }));
  let message: string;
  if (sorted.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(sorted[0].managerId)}: ${pathString(sorted[0].path)}`;
  } else {
    const byManager = new Map<string, Path[]>();
    for (const c of sorted) byManager.set(c.managerId, [...(byManager.get(c.managerId) ?? []), c.path]);
    const lines: string[] = [];
    for (const [id, paths] of byManager) {
      lines.push(`conflicts with ${printManager(id)}:`);
      for (const p of paths) lines.push(`- ${pathString(p)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}

/** An Apply's conflicts, thrown inside the field manager before they become the 409. */
export class ConflictList extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super('conflicts');
  }
}

export function toConflictError(err: unknown): unknown {
  return err instanceof ConflictList ? conflictError(err.conflicts) : err;
}
