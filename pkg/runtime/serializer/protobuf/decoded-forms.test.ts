import { expect } from 'chai';
import { canonicalizeTimesAndBytes } from './decoded-forms.js';

type Obj = Record<string, any>;

describe('canonicalizeTimesAndBytes: times and bytes as decoding into the Go type leaves them', () => {
  it('rewrites times at any depth (conditions, managedFields) and MicroTimes, and leaves the rest alone', () => {
    const pod: Obj = {
      metadata: { name: 'p', creationTimestamp: '2024-05-01T12:00:00+02:00', managedFields: [{ manager: 'm', time: '2024-05-01T10:00:00.5Z', fieldsV1: { 'f:a': {} } }] },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1000m' } } }] },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T12:00:00.123+02:00' }], startTime: '0001-01-01T00:00:00Z' },
    };
    canonicalizeTimesAndBytes(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({
      metadata: { name: 'p', creationTimestamp: '2024-05-01T10:00:00Z', managedFields: [{ manager: 'm', time: '2024-05-01T10:00:00Z', fieldsV1: { 'f:a': {} } }] },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1000m' } } }] },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' }], startTime: null },
    });
    const ev: Obj = { metadata: { name: 'e' }, eventTime: '2024-05-01T12:00:00.1234567+02:00', series: { count: 2, lastObservedTime: '2024-05-01T10:00:00.000001Z' } };
    canonicalizeTimesAndBytes(ev, 'events.k8s.io/v1', 'Event');
    expect([ev.eventTime, ev.series.lastObservedTime]).to.deep.equal(['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.000001Z']);
  });

  it('rewrites bytes: map values (Secret, ConfigMap) and single fields (CSR request, webhook caBundle)', () => {
    const secret: Obj = { metadata: { name: 's' }, data: { a: 'YW\nJj', b: 'YWJ=', c: null }, stringData: { d: 'YWJ=' } };
    canonicalizeTimesAndBytes(secret, 'v1', 'Secret');
    expect(secret).to.deep.equal({ metadata: { name: 's' }, data: { a: 'YWJj', b: 'YWI=', c: null }, stringData: { d: 'YWJ=' } });
    const csr: Obj = { metadata: { name: 'c' }, spec: { request: 'YWJj\n', signerName: 'x' } };
    canonicalizeTimesAndBytes(csr, 'certificates.k8s.io/v1', 'CertificateSigningRequest');
    expect(csr.spec.request).to.equal('YWJj');
    const hook: Obj = { metadata: { name: 'h' }, webhooks: [{ name: 'w', clientConfig: { caBundle: 'YR==' } }] };
    canonicalizeTimesAndBytes(hook, 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration');
    expect(hook.webhooks[0].clientConfig.caBundle).to.equal('YQ==');
  });

  it("walks only a merge patch's region when given one (the rest was decoded before)", () => {
    const secret: Obj = { metadata: { name: 's', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWJ=', b: 'YWJ=' } };
    canonicalizeTimesAndBytes(secret, 'v1', 'Secret', { data: { a: 'YWJ=' } });
    expect(secret).to.deep.equal({ metadata: { name: 's', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWI=', b: 'YWJ=' } });
    const pod: Obj = { metadata: { name: 'p' }, status: { conditions: [{ type: 'A', lastTransitionTime: '2024-05-01T12:00:00+02:00' }] } };
    canonicalizeTimesAndBytes(pod, 'v1', 'Pod', { status: { conditions: [] } });
    expect(pod.status.conditions[0].lastTransitionTime).to.equal('2024-05-01T10:00:00Z');
  });

  it('leaves kinds without a Go type (custom resources) as sent', () => {
    const cr: Obj = { metadata: { name: 'w', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWJ=' } };
    canonicalizeTimesAndBytes(cr, 'example.com/v1', 'Widget');
    expect(cr).to.deep.equal({ metadata: { name: 'w', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWJ=' } });
  });
});
