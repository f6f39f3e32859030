// keepNamespace: every DELETE the server would read as one of the fuzz namespace becomes a
// dry run, through the query and the body alike; nothing else is touched.
import { expect } from 'chai';
import type { FuzzRequest } from './arbitraries.js';
import { keepNamespace } from './runner.js';

const del = (path: string, body?: string): FuzzRequest => ({
  method: 'DELETE', path, headers: {}, body: body === undefined ? undefined : Buffer.from(body), bodyKind: body === undefined ? 'none' : 'merge-patch', anonymousTransport: false,
});

describe('fuzz runner: keepNamespace', () => {
  it('makes a DELETE of the fuzz namespace a dry run in whatever form the server reads it', () => {
    for (const p of ['/api/v1/namespaces/fuzz', '/api/v1/namespaces/fuzz/', '//api/v1//namespaces/fuzz', '/api/v1/namespaces/%66uzz', '/api/v1/namespaces/fuzz/status', '/api/v1/namespaces']) {
      expect(keepNamespace(del(p)).path, p).to.equal(`${p}?dryRun=All`);
    }
    expect(keepNamespace(del('/api/v1/namespaces/fuzz?x=1')).path).to.equal('/api/v1/namespaces/fuzz?x=1&dryRun=All');
    // After a fragment the server sees no query: the dry run goes before it.
    expect(keepNamespace(del('/api/v1/namespaces/fuzz?x=#&y')).path).to.equal('/api/v1/namespaces/fuzz?x=&dryRun=All#&y');
    expect(keepNamespace(del('/api/v1/namespaces/fuzz#?x')).path).to.equal('/api/v1/namespaces/fuzz?dryRun=All#?x');
  });

  it('drops the body, whose DeleteOptions would override the query (as upstream)', () => {
    const r = keepNamespace(del('/api/v1/namespaces/fuzz', '{"a":1}'));
    expect(r.body).to.equal(undefined);
    expect(r.bodyKind).to.equal('none');
  });

  it('leaves other requests alone', () => {
    for (const r of [del('/api/v1/namespaces/fuzz/configmaps/cm-0', '{}'), del('/api/v1/namespaces/other'), { ...del('/api/v1/namespaces/fuzz'), method: 'GET' }, del('/API/v1/namespaces/fuzz')]) {
      expect(keepNamespace(r)).to.equal(r);
    }
  });
});
