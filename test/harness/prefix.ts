import { randomBytes } from 'node:crypto';

let counter = 0;

/**
 * A key prefix no other suite in this or a concurrent run uses, e.g. "/t-storage-1k3f-7-9c2e1a".
 * Use it as --etcd-prefix or as the root of a storage test's keys; it has no trailing slash.
 */
export function uniquePrefix(label = 't'): string {
  const safe = label.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 't';
  counter += 1;
  return `/t-${safe}-${process.pid.toString(36)}-${counter}-${randomBytes(3).toString('hex')}`;
}
