// Reading a replica's audit log while it is still being written.

import { readFileSync } from 'node:fs';

/**
 * The events of a JSON-lines audit log, complete lines only: the replica may be halfway
 * through writing the last one when a test reads the file.
 */
export function readAuditLog<T = Record<string, unknown>>(path: string): T[] {
  const text = readFileSync(path, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}
