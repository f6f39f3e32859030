// The StatusErrors a PATCH can fail with, shaped as upstream's patch handler shapes them.

import { StatusError, errors } from '../../../runtime/errors.js';
import { genericServerResponse } from '../../../runtime/generic-server-response.js';

export const maxJSONPatchOperations = 10000;

export const patchErrors = {
  badRequest(message: string): StatusError {
    return errors.badRequest(message);
  },

  /**
   * What upstream returns when a JSON patch fails to apply (and for a few strategic merge
   * failures): NewGenericServerResponse(422, ...) with no resource and no name, whose
   * message hides the cause and whose details are present but empty.
   */
  unprocessable(): StatusError {
    return genericServerResponse({ code: 422, serverMessage: '' });
  },

  tooManyOperations(count: number): StatusError {
    return errors.requestEntityTooLarge(
      `Request entity too large: The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${count}`);
  },

  /**
   * A malformed patch that upstream reports as a plain Go error (a bare 500 with the
   * error text). It is the client's bad input, so we keep upstream's text and answer
   * 400 BadRequest: bad input never gets a 500 here.
   */
  unknown(message: string): StatusError {
    return errors.badRequest(message);
  },

  /**
   * The patched document could not be decoded into an object; upstream reports
   * NewInvalid(GroupKind{}, "", patch: Invalid value: <document>: <decode error>).
   */
  undecodable(document: string, detail: string): StatusError {
    const body = `Invalid value: ${JSON.stringify(document)}: ${detail}`;
    return new StatusError(422, 'Invalid', ` "" is invalid: patch: ${body}`,
      { causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }] });
  },
};

/** Go's error when a patched document that is not a JSON object is decoded. */
export function notAnObjectDetail(kindWord: string): string {
  return `couldn't get version/kind; json parse error: json: cannot unmarshal ${kindWord} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
}
