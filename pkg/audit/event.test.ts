import { expect } from 'chai';
import { jsonLine, legacyLine, microTime, type AuditEvent } from './event.js';

describe('audit event formats', () => {
  const ev: AuditEvent = {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'id-1', stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/ns/pods?limit=500', verb: 'list', user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    sourceIPs: ['10.0.0.1', '127.0.0.1'], userAgent: 'kubectl/v1.28.0', objectRef: { resource: 'pods', namespace: 'ns', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: '2026-11-25T10:00:00.120000Z', stageTimestamp: '2026-11-25T10:00:00.130000Z',
  };

  it('writes the JSON line with Go\'s escapes, as upstream\'s log backend (its JSON serializer): the requestURI\'s & as \\u0026', () => {
    const line = jsonLine({ ...ev, requestURI: '/api/v1/pods?limit=500&resourceVersion=0', userAgent: 'agent <x>' });
    expect(line).to.include('"requestURI":"/api/v1/pods?limit=500\\u0026resourceVersion=0"');
    expect(line).to.include('"userAgent":"agent \\u003cx\\u003e"');
    expect(line.endsWith('}\n')).to.equal(true);
    expect(JSON.parse(line)).to.deep.equal({ ...ev, requestURI: '/api/v1/pods?limit=500&resourceVersion=0', userAgent: 'agent <x>' });
  });

  it('writes upstream\'s legacy line (EventString after an RFC3339Nano receive time)', () => {
    expect(legacyLine(ev)).to.equal('2026-11-25T10:00:00.12Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="list" '
      + 'user="alice" groups="\\"dev\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.28.0" '
      + 'namespace="ns" uri="/api/v1/namespaces/ns/pods?limit=500" response="200"\n');
  });

  it('prints the legacy placeholders when parts are missing', () => {
    const bare: AuditEvent = { ...ev, user: { username: '' }, sourceIPs: [], objectRef: undefined, responseStatus: undefined,
      impersonatedUser: { username: 'bob' }, requestReceivedTimestamp: '2026-11-25T10:00:00.000000Z' };
    expect(legacyLine(bare)).to.equal('2026-11-25T10:00:00Z AUDIT: id="id-1" stage="ResponseComplete" ip="<unknown>" method="list" '
      + 'user="<none>" groups="<none>" as="bob" asgroups="<lookup>" user-agent="kubectl/v1.28.0" namespace="<none>" '
      + 'uri="/api/v1/namespaces/ns/pods?limit=500" response="<deferred>"\n');
  });

  it('keeps six fractional digits in MicroTime', () => {
    expect(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6), 7)).to.equal('2026-01-02T03:04:05.006007Z');
  });
});
