// The ConversionReview exchange: version negotiation, the request body, and upstream's
// checks on the answer for v1 and v1beta1.
import { expect } from 'chai';
import { convertedObjects, negotiateReviewVersion, reviewRequest, ReviewError } from './review.js';

const uid = '0b6b5b9e-1f0e-4a38-9f54-2c1f1b7d6a11';
const answer = (apiVersion: string, response: unknown, kind = 'ConversionReview') => JSON.stringify({ apiVersion, kind, response });
const ok = (over: Record<string, unknown> = {}) => ({ uid, convertedObjects: [{ kind: 'W' }], result: { status: 'Success' }, ...over });

function failure(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).to.be.instanceOf(ReviewError);
    return (err as Error).message;
  }
  throw new Error('expected a ReviewError');
}

describe('ConversionReview', () => {
  it('sends the first version this server speaks, with an empty response as Go encodes it', () => {
    expect(negotiateReviewVersion(['v2', 'v1beta1', 'v1'])).to.equal('v1beta1');
    expect(negotiateReviewVersion(['v1', 'v1beta1'])).to.equal('v1');
    expect(negotiateReviewVersion(['v3'])).to.equal(undefined);
    expect(negotiateReviewVersion(undefined)).to.equal(undefined);
    expect(JSON.parse(reviewRequest('v1beta1', uid, 'g/v2', [{ kind: 'W', metadata: {} }]))).to.deep.equal({
      kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1beta1',
      request: { uid, desiredAPIVersion: 'g/v2', objects: [{ kind: 'W', metadata: {} }] },
      response: { uid: '', convertedObjects: null, result: { metadata: {} } },
    });
  });

  it('checks a v1 answer for kind, uid and result', () => {
    const v1 = (body: string) => convertedObjects('v1', uid, 200, 'application/json', body);
    expect(v1(answer('apiextensions.k8s.io/v1', ok()))).to.deep.equal([{ kind: 'W' }]);
    expect(failure(() => convertedObjects('v1', uid, 200, 'application/json', ''))).to.equal('0-length response with status code: 200 and content type: application/json');
    expect(failure(() => v1('{'))).to.match(/^couldn't get version\/kind; json parse error: /);
    expect(failure(() => v1(answer('apiextensions.k8s.io/v1beta1', ok())))).to.equal(
      'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview');
    expect(failure(() => v1(answer('apiextensions.k8s.io/v1', undefined)))).to.equal('no response provided');
    expect(failure(() => v1(answer('apiextensions.k8s.io/v1', ok({ uid: 'other' }))))).to.equal(`expected response.uid="${uid}", got "other"`);
    expect(failure(() => v1(answer('apiextensions.k8s.io/v1', ok({ result: { status: 'Failure', message: 'no way' } }))))).to.equal('no way');
    expect(failure(() => v1(answer('apiextensions.k8s.io/v1', ok({ result: {} }))))).to.equal("response.result.status was '', not 'Success'");
    expect(failure(() => v1(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'denied' })))).to.equal('denied');
  });

  it('checks neither kind nor uid of a v1beta1 answer, as upstream kept for compatibility', () => {
    const body = JSON.stringify({ response: ok({ uid: 'whatever' }) });
    expect(convertedObjects('v1beta1', uid, 200, 'application/json', body)).to.deep.equal([{ kind: 'W' }]);
    expect(failure(() => convertedObjects('v1beta1', uid, 200, 'application/json', answer('apiextensions.k8s.io/v1beta1', ok({ result: { status: 'Failure' } })))))
      .to.equal("response.result.status was 'Failure', not 'Success'");
  });
});
