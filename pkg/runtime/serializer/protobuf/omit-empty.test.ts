import { expect } from 'chai';
import { dropEmptyOmitted } from './omit-empty.js';

describe('dropEmptyOmitted: what decoding into the Go type loses', () => {
  it('drops empty maps and slices of omitempty fields, at any depth, and keeps the rest', () => {
    const cm: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: {}, annotations: { a: 'b' }, finalizers: [] }, data: {} };
    dropEmptyOmitted(cm, 'v1', 'ConfigMap');
    expect(cm).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', annotations: { a: 'b' } } });
    const pod: Record<string, unknown> = {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', ports: [], env: [{ name: 'E', value: 'v' }] }], volumes: [], nodeSelector: {} },
    };
    dropEmptyOmitted(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'E', value: 'v' }], resources: {} }] }, status: {} });
  });

  it('drops nulls of omitempty fields (nil after decoding) and keeps those of times held by value and of fields without omitempty', () => {
    const cm: Record<string, unknown> = { metadata: { name: 'c', labels: null, creationTimestamp: null }, data: null, immutable: null };
    dropEmptyOmitted(cm, 'v1', 'ConfigMap');
    expect(cm).to.deep.equal({ metadata: { name: 'c', creationTimestamp: null } });
    const role: Record<string, unknown> = { metadata: { name: 'r' }, rules: null };
    dropEmptyOmitted(role, 'rbac.authorization.k8s.io/v1', 'Role');
    expect(role).to.deep.equal({ metadata: { name: 'r' }, rules: null });
  });

  it('puts the zero value in place of a null in a scalar without omitempty, as a decode into the Go struct leaves it', () => {
    const pod: Record<string, unknown> = {
      metadata: {},
      spec: { containers: [{ name: null, image: 'i', ports: [{ containerPort: null, name: null }], resources: {} }] },
      status: { containerStatuses: [{ name: 'c', ready: null, restartCount: null, image: null, started: null, state: {}, lastState: {} }] },
    };
    dropEmptyOmitted(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({
      metadata: {},
      spec: { containers: [{ name: '', image: 'i', ports: [{ containerPort: 0 }], resources: {} }] },
      status: { containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', state: {}, lastState: {} }] },
    });
  });

  it('puts a struct\'s zero in place of a null in a struct held by value', () => {
    const pod: Record<string, unknown> = { status: { containerStatuses: [{ name: 'c', state: null, lastState: { running: null } }] }, spec: { template: null } };
    dropEmptyOmitted(pod, 'v1', 'Pod');
    expect(pod.status).to.deep.equal({ containerStatuses: [{ name: 'c', state: {}, lastState: {} }] });
    const template: Record<string, unknown> = { metadata: {}, template: { metadata: null, spec: null } };
    dropEmptyOmitted(template, 'v1', 'PodTemplate');
    expect(template).to.deep.equal({ metadata: {}, template: { metadata: { creationTimestamp: null }, spec: { containers: null } } });
  });

  it('puts a struct\'s zero where a struct held by value is absent, and nothing where a pointer, a list or a scalar is', () => {
    const pod: Record<string, unknown> = {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } } }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', state: { running: {} } }] },
    };
    dropEmptyOmitted(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } } }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', state: { running: {} }, lastState: {} }] },
    });
    const deployment: Record<string, unknown> = { metadata: { name: 'd' }, spec: { template: { spec: { containers: [] } } }, status: {} };
    dropEmptyOmitted(deployment, 'apps/v1', 'Deployment');
    expect(deployment).to.deep.equal({
      metadata: { name: 'd' }, spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [] } }, strategy: {} }, status: {},
    });
  });

  it('puts the element\'s zero value in place of a null item of a list or value of a map; a []byte\'s stays nil', () => {
    const cm: Record<string, unknown> = { metadata: { name: 'c', finalizers: ['a/b', null], labels: { l: null } }, data: { k: null }, binaryData: { b: null } };
    dropEmptyOmitted(cm, 'v1', 'ConfigMap');
    expect(cm).to.deep.equal({ metadata: { name: 'c', finalizers: ['a/b', ''], labels: { l: '' } }, data: { k: '' }, binaryData: { b: null } });
    const pod: Record<string, unknown> = { metadata: { ownerReferences: [null] }, spec: { containers: [{ name: 'c', command: [null], resources: { limits: { cpu: null } } }] }, status: {} };
    dropEmptyOmitted(pod, 'v1', 'Pod');
    expect(pod).to.deep.equal({
      metadata: { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] },
      spec: { containers: [{ name: 'c', command: [''], resources: { limits: { cpu: '0' } } }] },
      status: {},
    });
  });

  it('keeps empty slices of fields without omitempty, and leaves kinds without a Go type alone', () => {
    const role: Record<string, unknown> = { metadata: { name: 'r' }, rules: [] };
    dropEmptyOmitted(role, 'rbac.authorization.k8s.io/v1', 'Role');
    expect(role).to.deep.equal({ metadata: { name: 'r' }, rules: [] });
    const cr: Record<string, unknown> = { metadata: { labels: {} }, spec: { list: [] } };
    dropEmptyOmitted(cr, 'example.com/v1', 'Widget');
    expect(cr).to.deep.equal({ metadata: { labels: {} }, spec: { list: [] } });
  });

  it('looks only in a changed region (a merge patch\'s keys), there at any depth', () => {
    const cm: Record<string, unknown> = { metadata: { name: 'c', labels: {}, annotations: {} }, data: {}, binaryData: {} };
    dropEmptyOmitted(cm, 'v1', 'ConfigMap', { metadata: { annotations: {} }, binaryData: null });
    expect(cm).to.deep.equal({ metadata: { name: 'c', labels: {} }, data: {} });
    const pod: Record<string, unknown> = { spec: { containers: [{ name: 'c', ports: [] }], volumes: [], nodeSelector: {} } };
    dropEmptyOmitted(pod, 'v1', 'Pod', { spec: { containers: [{ name: 'c', ports: [] }] } });
    // Outside the region nothing is added either: no status.
    expect(pod).to.deep.equal({ spec: { containers: [{ name: 'c', resources: {} }], volumes: [], nodeSelector: {} } });
  });
});
