// Strategic merge patch failures with upstream's texts (apimachinery mergepatch) and the
// status each gets from the patch handler (interpretStrategicMergePatchError): malformed
// directives are 400, lists of lists and retainKeys mismatches the opaque 422, anything
// else a bare 500 carrying the message.

import type { StatusError } from '../../../../runtime/errors.js';
import { patchErrors } from '../errors.js';
import { goFormat, goTypeName } from '../json-value.js';

export const smpErrors = {
  badPatchFormatForPrimitiveList: (): StatusError => patchErrors.badRequest('invalid patch format of primitive list'),
  badPatchFormatForRetainKeys: (): StatusError => patchErrors.badRequest('invalid patch format of retainKeys'),
  badPatchFormatForSetElementOrderList: (): StatusError => patchErrors.badRequest('invalid patch format of setElementOrder list'),
  noListOfLists: (): StatusError => patchErrors.unprocessable(),

  noMergeKey(m: unknown, key: string): StatusError {
    return patchErrors.unknown(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
  },
  /** `expected` is the Go type name that was wanted. */
  badArgType(expected: string, actual: unknown): StatusError {
    return patchErrors.unknown(`expected a ${expected}, but received a ${goTypeName(actual)}`);
  },
  badPatchType(directive: unknown, m: unknown): StatusError {
    return patchErrors.unknown(`unknown patch type: ${goFormat(directive, 's')} in map: ${goFormat(m)}`);
  },
  other(message: string): StatusError {
    return patchErrors.unknown(message);
  },
};

export const goMapType = 'map[string]interface {}';
export const goSliceType = '[]interface {}';
