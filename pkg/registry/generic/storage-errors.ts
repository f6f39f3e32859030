// Storage failures become API errors here, with the resource's name in the message.
import { errors, StatusError, type GroupResource } from '../../runtime/errors.js';
import { StorageError } from '../../storage/interfaces.js';
import { plainError } from '../../util/proxy/errors.js';

export function toStatusError(err: unknown, gr: GroupResource, name: string): Error {
  if (err instanceof StatusError) return err;
  if (!(err instanceof StorageError)) return err instanceof Error ? err : new Error(String(err));
  switch (err.code) {
    case 'KeyNotFound': return errors.notFound(gr, name);
    case 'KeyExists': return errors.alreadyExists(gr, name);
    case 'ResourceVersionConflict':
      return errors.conflict(gr, name, err.message.startsWith('Precondition failed')
        ? err.message : 'the object has been modified; please apply your changes to the latest version and try again');
    case 'InvalidContinue': return errors.badRequest(err.message);
    default: return etcdFailureStatus(err) ?? errors.internal(err);
  }
}

/**
 * etcd's failures, whatever the resource: also the error filter's safety net for a
 * StorageError that reached it without the registry. Unreachable is a 503 with upstream's
 * storage retry hint (2 s); a Timeout (a write's outcome unknown) is upstream's 504 for a
 * request that did not complete, without Retry-After, since a blind retry may repeat it.
 */
export function etcdFailureStatus(err: StorageError): StatusError | undefined {
  switch (err.code) {
    case 'Unreachable': return errors.serviceUnavailable(err.message, 2);
    case 'Timeout': return errors.timeout(err.message);
    case 'ResourceVersionGone': return errors.resourceExpired(err.message);
    case 'TooLargeResourceVersion':
      return errors.tooLargeResourceVersion(`Too large resource version: ${err.message.replace(/^Too large resource version:?\s*/, '')}`);
    // Upstream's Interpret*Error leave it as it is, so its handler renders it as any
    // non-Status error: a 500 with etcd's text, no reason (not an InternalError).
    case 'EtcdRefused': return plainError(err.message);
    default: return undefined;
  }
}
