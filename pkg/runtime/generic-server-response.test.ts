import { expect } from 'chai';
import { genericServerResponse } from './generic-server-response.js';

describe('genericServerResponse (client-go NewGenericServerResponse)', () => {
  const pods = { group: '', resource: 'pods' };

  it('names verb, resource and object after the fixed text, as the kubelet checker reports', () => {
    const e = genericServerResponse({ code: 404, resource: pods, name: 'p', serverMessage: 'no such container' });
    expect(e.toStatus()).to.include({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource ( pods p)' });
    expect(e.toStatus().details).to.deep.include({ kind: 'pods', name: 'p' });
    const get = genericServerResponse({ code: 405, verb: 'GET', resource: { group: 'apps', resource: 'deployments' }, serverMessage: '' });
    expect(get.message).to.equal('the server does not allow this method on the requested resource (get deployments.apps)');
  });

  it('keeps the server words for 403, 415 and 406, and quotes them for 5xx', () => {
    expect(genericServerResponse({ code: 403, serverMessage: 'user x cannot exec' }).toStatus()).to.include({ reason: 'Forbidden', message: 'user x cannot exec' });
    expect(genericServerResponse({ code: 415, serverMessage: 'only json' }).toStatus()).to.include({ reason: 'UnsupportedMediaType', message: 'only json' });
    expect(genericServerResponse({ code: 406, serverMessage: 'only yaml' }).message).to.equal('only yaml');
    expect(genericServerResponse({ code: 406, serverMessage: 'unknown' }).message).to.equal('the server was unable to respond with a content type that the client supports');
    expect(genericServerResponse({ code: 502, serverMessage: 'bad "gw"' }).toStatus()).to.include({
      reason: 'InternalError', message: 'an error on the server ("bad \\"gw\\"") has prevented the request from succeeding',
    });
  });

  it('a 409 is AlreadyExists only for a POST; an unlisted code has no reason', () => {
    expect(genericServerResponse({ code: 409, verb: 'POST', serverMessage: '' }).toStatus().reason).to.equal('AlreadyExists');
    expect(genericServerResponse({ code: 409, verb: 'PUT', serverMessage: '' }).toStatus().reason).to.equal('Conflict');
    const teapot = genericServerResponse({ code: 418, serverMessage: 'teapot' }).toStatus();
    expect(teapot.message).to.equal('the server responded with the status code 418 but did not return more information');
    expect(teapot).not.to.have.property('reason');
  });
});
