import { expect } from 'chai';
import { canonicalizeDecodedForms } from './decoded-forms.js';

type Obj = Record<string, any>;

describe('canonicalizeDecodedForms: times, bytes and quantities as decoding into the Go type leaves them', () => {
  it('rewrites times at any depth (conditions, managedFields) and MicroTimes, and leaves the rest alone', () => {
    const pod: Obj = {
      metadata: { name: 'p', creationTimestamp: '2024-05-01T12:00:00+02:00', managedFields: [{ manager: 'm', time: '2024-05-01T10:00:00.5Z', fieldsV1: { 'f:a': {} } }] },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1000m' } } }] },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T12:00:00.123+02:00' }], startTime: '0001-01-01T00:00:00Z' },
    };
    canonicalizeDecodedForms(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({
      metadata: { name: 'p', creationTimestamp: '2024-05-01T10:00:00Z', managedFields: [{ manager: 'm', time: '2024-05-01T10:00:00Z', fieldsV1: { 'f:a': {} } }] },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } } }] },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' }], startTime: null },
    });
    const ev: Obj = { metadata: { name: 'e' }, eventTime: '2024-05-01T12:00:00.1234567+02:00', series: { count: 2, lastObservedTime: '2024-05-01T10:00:00.000001Z' } };
    canonicalizeDecodedForms(ev, 'events.k8s.io/v1', 'Event');
    expect([ev.eventTime, ev.series.lastObservedTime]).to.deep.equal(['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.000001Z']);
  });

  it('rewrites bytes: map values (Secret, ConfigMap) and single fields (CSR request, webhook caBundle)', () => {
    const secret: Obj = { metadata: { name: 's' }, data: { a: 'YW\nJj', b: 'YWJ=', c: null }, stringData: { d: 'YWJ=' } };
    canonicalizeDecodedForms(secret, 'v1', 'Secret');
    expect(secret).to.deep.equal({ metadata: { name: 's' }, data: { a: 'YWJj', b: 'YWI=', c: null }, stringData: { d: 'YWJ=' } });
    const csr: Obj = { metadata: { name: 'c' }, spec: { request: 'YWJj\n', signerName: 'x' } };
    canonicalizeDecodedForms(csr, 'certificates.k8s.io/v1', 'CertificateSigningRequest');
    expect(csr.spec.request).to.equal('YWJj');
    const hook: Obj = { metadata: { name: 'h' }, webhooks: [{ name: 'w', clientConfig: { caBundle: 'YR==' } }] };
    canonicalizeDecodedForms(hook, 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration');
    expect(hook.webhooks[0].clientConfig.caBundle).to.equal('YQ==');
  });

  it("walks only a merge patch's region when given one (the rest was decoded before)", () => {
    const secret: Obj = { metadata: { name: 's', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWJ=', b: 'YWJ=' } };
    canonicalizeDecodedForms(secret, 'v1', 'Secret', { data: { a: 'YWJ=' } });
    expect(secret).to.deep.equal({ metadata: { name: 's', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWI=', b: 'YWJ=' } });
    const pod: Obj = { metadata: { name: 'p' }, status: { conditions: [{ type: 'A', lastTransitionTime: '2024-05-01T12:00:00+02:00' }] } };
    canonicalizeDecodedForms(pod, 'v1', 'Pod', { status: { conditions: [] } });
    expect(pod.status.conditions[0].lastTransitionTime).to.equal('2024-05-01T10:00:00Z');
  });

  it('leaves kinds without a Go type (custom resources) as sent', () => {
    const cr: Obj = { metadata: { name: 'w', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWJ=' } };
    canonicalizeDecodedForms(cr, 'example.com/v1', 'Widget');
    expect(cr).to.deep.equal({ metadata: { name: 'w', creationTimestamp: '2024-05-01T12:00:00+02:00' }, data: { a: 'YWJ=' } });
  });

  it('rewrites the quantities of a built-in kind, maps and single fields, and nothing else', () => {
    const pod = {
      metadata: { name: 'p', labels: { cpu: '1000m' } },
      spec: {
        containers: [{ name: 'c', resources: { limits: { cpu: '1000m', memory: '1024Mi' }, requests: { cpu: 0.5, memory: null, odd: 'abc' } } }],
        volumes: [{ name: 'v', emptyDir: { sizeLimit: ' 2000 ' } }],
        overhead: { cpu: '1.5' },
      },
    };
    canonicalizeDecodedForms(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({
      metadata: { name: 'p', labels: { cpu: '1000m' } },
      spec: {
        // A null in a ResourceList decodes as a zero Quantity; what does not parse is left for validation.
        containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '0', odd: 'abc' } } }],
        volumes: [{ name: 'v', emptyDir: { sizeLimit: '2k' } }],
        overhead: { cpu: '1500m' },
      },
    });
  });

  it('leaves a kind without quantities (ConfigMap data) and a custom resource\'s quantities as sent', () => {
    const cm = { metadata: { name: 'c' }, data: { cpu: '1000m' } };
    canonicalizeDecodedForms(cm, 'v1', 'ConfigMap');
    expect(cm.data.cpu).to.equal('1000m');
    const cr = { metadata: { name: 'w' }, spec: { cpu: '1000m' } };
    canonicalizeDecodedForms(cr, 'example.com/v1', 'Widget');
    expect(cr.spec.cpu).to.equal('1000m');
  });
});
