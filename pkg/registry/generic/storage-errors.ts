// Storage failures become API errors here, with the resource's name in the message.
import { errors, StatusError, type GroupResource } from '../../runtime/errors.js';
import { StorageError } from '../../storage/interfaces.js';

export function toStatusError(err: unknown, gr: GroupResource, name: string): Error {
  if (err instanceof StatusError) return err;
  if (!(err instanceof StorageError)) return err instanceof Error ? err : new Error(String(err));
  switch (err.code) {
    case 'KeyNotFound': return errors.notFound(gr, name);
    case 'KeyExists': return errors.alreadyExists(gr, name);
    case 'ResourceVersionConflict':
      return errors.conflict(gr, name, err.message.startsWith('Precondition failed')
        ? err.message : 'the object has been modified; please apply your changes to the latest version and try again');
    case 'ResourceVersionGone': return errors.resourceExpired(err.message);
    case 'InvalidContinue': return errors.badRequest(err.message);
    case 'TooLargeResourceVersion':
      return errors.tooLargeResourceVersion(`Too large resource version: ${err.message.replace(/^Too large resource version:?\s*/, '')}`);
    case 'Unreachable': return errors.serviceUnavailable(err.message);
    default: return errors.internal(err);
  }
}
