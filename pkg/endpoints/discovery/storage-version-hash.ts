// storageVersionHash lets clients (the storage version migrator) notice when the version a
// resource is stored in changes. Upstream: base64 of the first 8 bytes of
// sha256("<group>/<version>/<Kind>") of the storage version; the core group's group is
// empty, so ConfigMap hashes "/v1/ConfigMap" (-> "qFsyl6wFWjQ=").
import { createHash } from 'node:crypto';

export function storageVersionHash(group: string, version: string, kind: string): string {
  if (kind === '') return '';
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
