// Go reads a body's apiVersion and kind into two strings before anything else; a JSON value
// of another kind stops the decode there. Checked before either is printed into a message:
// an object whose `toString` is not a function throws when made a string, which was a 500.
import { jsonKindWord } from '../../apis/meta/patch/go-json.js';

/** Go's error for an apiVersion or kind that is not a string (null reads as ""), or undefined. */
export function typeMetaDecodeError(body: Record<string, unknown>): string | undefined {
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = body[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindWord(v)} into Go struct field .${field} of type string`;
    }
  }
  return undefined;
}

/**
 * Upstream's summary of a body in a decode error (summarizeData in the create handler's
 * transformDecodeError): a JSON object's first 30 bytes and " ...", as text.
 */
export function summarizeBody(text: string, max = 30): string {
  if (text.length === 0) return '<empty>';
  return text.length > max ? `${text.slice(0, max)} ...` : text;
}
