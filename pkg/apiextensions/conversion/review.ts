// The ConversionReview exchange, apiextensions.k8s.io/v1 and v1beta1 (upstream's
// createConversionReviewObjects and getConvertedObjectsFromResponse): what is sent, and
// the checks on what comes back. Errors are the text upstream puts after "failed: ".
import type { KubeObject } from '../../runtime/object.js';
import { isPlainObject } from '../../runtime/object.js';
import { gvkString } from './errors.js';

export type ReviewVersion = 'v1' | 'v1beta1';

const reviewGroup = 'apiextensions.k8s.io';

/** The first of the CRD's conversionReviewVersions this server speaks. */
export function negotiateReviewVersion(accepted: readonly string[] | undefined): ReviewVersion | undefined {
  return (accepted ?? []).find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

/** The request body, fields in the order Go encodes them (an empty response included). */
export function reviewRequest(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly KubeObject[]): string {
  return JSON.stringify({
    kind: 'ConversionReview',
    apiVersion: `${reviewGroup}/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  });
}

export class ReviewError extends Error {
  /** True when the body is no review at all (client-go fails it as the call); false for a review upstream refuses. */
  constructor(message: string, readonly undecodable = false) {
    super(message);
  }
}

interface ReviewResponse {
  uid?: unknown;
  convertedObjects?: unknown;
  result?: { status?: unknown; message?: unknown };
}

/**
 * The converted objects of a 2xx answer, or a ReviewError. v1 answers must be a v1
 * ConversionReview for this request's uid; v1beta1 answers are not checked for either,
 * as upstream kept for compatibility.
 */
export function convertedObjects(version: ReviewVersion, uid: string, status: number, contentType: string, body: string): unknown[] {
  if (body.length === 0) throw new ReviewError(`0-length response with status code: ${status} and content type: ${contentType}`, true);
  let review: unknown;
  try {
    review = JSON.parse(body);
  } catch (err) {
    throw new ReviewError(`couldn't get version/kind; json parse error: ${(err as Error).message}`, true);
  }
  if (!isPlainObject(review)) throw new ReviewError(`couldn't get version/kind; json parse error: cannot unmarshal ${Array.isArray(review) ? 'array' : typeof review} into an object`, true);
  const apiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : '';
  const kind = typeof review.kind === 'string' ? review.kind : '';
  // A Status in a 2xx answer is still a failure to client-go.
  if (kind === 'Status' && review.status !== 'Success') throw new ReviewError(typeof review.message === 'string' ? review.message : '', true);
  if (version === 'v1' && (apiVersion !== `${reviewGroup}/v1` || kind !== 'ConversionReview')) {
    throw new ReviewError(`expected webhook response of ${reviewGroup}/v1, Kind=ConversionReview, got ${gvkString(apiVersion, kind)}`);
  }
  if (!isPlainObject(review.response)) throw new ReviewError('no response provided');
  const response = review.response as ReviewResponse;
  if (version === 'v1' && response.uid !== uid) {
    throw new ReviewError(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response.uid === 'string' ? response.uid : '')}`);
  }
  const result = isPlainObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    if (typeof result.message === 'string' && result.message.length > 0) throw new ReviewError(result.message);
    throw new ReviewError(`response.result.status was '${typeof result.status === 'string' ? result.status : ''}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}
