import { expect } from 'chai';
import { checkTypes, decodeErrorFor, typeProblemOf } from './type-check.js';

function message(group: string, version: string, kind: string, obj: unknown): string | undefined {
  const err = checkTypes(group, version, kind, obj);
  if (err) {
    expect(err.code).to.equal(400);
    expect(err.reason).to.equal('BadRequest');
  }
  return err?.message;
}

const prefix = (kind: string) => `${kind} in version "v1" cannot be handled as a ${kind}: `;

describe('checkTypes', () => {
  it('refuses integers written as floats, as written, and puts the numbers back (a quantity as its text)', () => {
    const pod = { spec: { terminationGracePeriodSeconds: 3, containers: [{ name: 'c', ports: [{ containerPort: 80 }], resources: { limits: { memory: 1000000 } } }] } };
    const floats = [{ path: ['spec', 'terminationGracePeriodSeconds'], text: '3.0' }];
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, floats))
      .to.equal('json: cannot unmarshal number 3.0 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64');
    expect(pod.spec.terminationGracePeriodSeconds).to.equal(3);
    const port = [{ path: ['spec', 'containers', 0, 'ports', 0, 'containerPort'], text: '8e1' }];
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, port))
      .to.equal('json: cannot unmarshal number 8e1 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
    const memory = [{ path: ['spec', 'containers', 0, 'resources', 'limits', 'memory'], text: '1e6' }];
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, memory)).to.equal(undefined);
    expect(pod.spec.containers[0].resources.limits.memory).to.equal('1e6');
    // A path that no longer leads to that number (a moved patch value) is left alone.
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, [{ path: ['spec', 'terminationGracePeriodSeconds'], text: '4.0' }])).to.equal(undefined);
  });

  it('asks where the floats are only when a number meets an integer, an int-or-string or a quantity, and answers as if told', () => {
    const asked: string[] = [];
    const lazy = (floats: Array<{ path: Array<string | number>; text: string }>) => () => { asked.push('asked'); return floats; };
    // Numbers only where a float literal is taken as it is (a float64, a free-form value), or a wrong type.
    const pod = { spec: { containers: [{ name: 'c', image: 5 }] }, metadata: { annotations: { a: 'b' } } };
    const wrongType = typeProblemOf('', 'v1', 'Pod', pod, true, lazy([]));
    expect(wrongType).to.equal(typeProblemOf('', 'v1', 'Pod', pod, true, []));
    expect(asked).to.deep.equal([]);
    const grace = { spec: { terminationGracePeriodSeconds: 3, containers: [{ name: 'c' }] } };
    const floats = [{ path: ['spec', 'terminationGracePeriodSeconds'], text: '3.0' }];
    expect(typeProblemOf('', 'v1', 'Pod', grace, true, lazy(floats))).to.equal(typeProblemOf('', 'v1', 'Pod', grace, true, floats))
      .and.to.contain('number 3.0');
    expect(asked).to.deep.equal(['asked']);
    const memory = { spec: { containers: [{ name: 'c', resources: { limits: { memory: 1000000 } } }] } };
    expect(typeProblemOf('', 'v1', 'Pod', memory, true, lazy([{ path: ['spec', 'containers', 0, 'resources', 'limits', 'memory'], text: '1e6' }])))
      .to.equal(undefined);
    expect(memory.spec.containers[0].resources.limits.memory).to.equal('1e6');
  });

  it('checks a long integer literal\'s range on its exact value, and names it as written', () => {
    const pod = { spec: { terminationGracePeriodSeconds: 2 ** 63, containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } };
    const grace = (text: string) => [{ path: ['spec', 'terminationGracePeriodSeconds'], text }];
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, grace('9223372036854775807'))).to.equal(undefined);
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, grace('9223372036854775808')))
      .to.equal('json: cannot unmarshal number 9223372036854775808 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64');
    expect(pod.spec.terminationGracePeriodSeconds).to.equal(2 ** 63);
    pod.spec.terminationGracePeriodSeconds = 30;
    pod.spec.containers[0].ports[0].containerPort = 2 ** 64;
    expect(typeProblemOf('', 'v1', 'Pod', pod, true, [{ path: ['spec', 'containers', 0, 'ports', 0, 'containerPort'], text: '18446744073709551616' }]))
      .to.equal('json: cannot unmarshal number 18446744073709551616 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
  });

  it('accepts well-typed bodies, nulls and unknown fields (those are not type errors)', () => {
    expect(message('', 'v1', 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } }, data: { k: 'v' }, extra: 1 })).to.equal(undefined);
    expect(message('', 'v1', 'ConfigMap', { metadata: null, data: null, immutable: null })).to.equal(undefined);
    expect(message('example.com', 'v1', 'Widget', { spec: 5 })).to.equal(undefined);
  });

  it('reports map values with the enclosing struct and field path', () => {
    expect(message('', 'v1', 'ConfigMap', { data: { a: 1 } }))
      .to.equal(`${prefix('ConfigMap')}json: cannot unmarshal number into Go struct field ConfigMap.data of type string`);
    expect(message('', 'v1', 'ConfigMap', { metadata: { labels: 'x' } }))
      .to.equal(`${prefix('ConfigMap')}json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string`);
  });

  it('names the innermost struct and drops list indices from the path', () => {
    expect(message('', 'v1', 'Pod', { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 5 }] } }))
      .to.equal(`${prefix('Pod')}json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string`);
    expect(message('', 'v1', 'Pod', { spec: { containers: ['x'] } }))
      .to.equal(`${prefix('Pod')}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container`);
    expect(message('', 'v1', 'Pod', { spec: 'x' }))
      .to.equal(`${prefix('Pod')}json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec`);
    expect(message('rbac.authorization.k8s.io', 'v1', 'Role', { rules: [{ verbs: 'get' }] }))
      .to.equal(`${prefix('Role')}json: cannot unmarshal string into Go struct field PolicyRule.rules.verbs of type []string`);
  });

  it('reports integers by width and prints non-integral numbers', () => {
    expect(message('apps', 'v1', 'Deployment', { spec: { replicas: 'x' } }))
      .to.equal(`${prefix('Deployment')}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`);
    expect(message('apps', 'v1', 'Deployment', { spec: { replicas: 1.5 } }))
      .to.equal(`${prefix('Deployment')}json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`);
    expect(message('apps', 'v1', 'Deployment', { spec: { replicas: 3000000000 } }))
      .to.contain('number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect(message('', 'v1', 'Pod', { spec: { activeDeadlineSeconds: true } }))
      .to.contain('cannot unmarshal bool into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64');
    expect(message('', 'v1', 'ConfigMap', { immutable: 'yes' }))
      .to.contain('cannot unmarshal string into Go struct field ConfigMap.immutable of type bool');
  });

  it('accepts both forms of int-or-string and quantity fields', () => {
    const svc = (targetPort: unknown) => ({ spec: { ports: [{ port: 80, targetPort }] } });
    expect(message('', 'v1', 'Service', svc(8080))).to.equal(undefined);
    expect(message('', 'v1', 'Service', svc('http'))).to.equal(undefined);
    expect(message('', 'v1', 'Service', svc(true)))
      .to.equal(`${prefix('Service')}json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32`);
    const pod = (cpu: unknown) => ({ spec: { containers: [{ name: 'c', resources: { limits: { cpu } } }] } });
    expect(message('', 'v1', 'Pod', pod(1))).to.equal(undefined);
    expect(message('', 'v1', 'Pod', pod('500m'))).to.equal(undefined);
    expect(message('', 'v1', 'Pod', pod('abc')))
      .to.equal(`${prefix('Pod')}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    expect(message('', 'v1', 'Pod', pod('1Kii'))).to.contain("unable to parse quantity's suffix");
  });

  it('checks base64 bytes and timestamps as the decoder parses them', () => {
    expect(message('', 'v1', 'Secret', { data: { a: 'YWJj' } })).to.equal(undefined);
    expect(message('', 'v1', 'Secret', { data: { a: 'abc' } })).to.equal(`${prefix('Secret')}illegal base64 data at input byte 0`);
    expect(message('', 'v1', 'ConfigMap', { metadata: { creationTimestamp: '2023-01-02T03:04:05Z' } })).to.equal(undefined);
    expect(message('', 'v1', 'ConfigMap', { metadata: { creationTimestamp: 'yesterday' } }))
      .to.equal(`${prefix('ConfigMap')}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`);
  });

  it('reports a non-object body against the kind\'s Go type', () => {
    expect(message('', 'v1', 'ConfigMap', [1])).to.equal(`${prefix('ConfigMap')}json: cannot unmarshal array into Go value of type v1.ConfigMap`);
  });

  it('reports the first recoverable error in document order', () => {
    expect(decodeErrorFor('io.k8s.api.core.v1.ConfigMap', { immutable: 1, data: { a: 2 } }))
      .to.equal('json: cannot unmarshal number into Go struct field ConfigMap.immutable of type bool');
    expect(decodeErrorFor('io.k8s.api.core.v1.ConfigMap', { data: { a: 2 }, immutable: 1 }))
      .to.equal('json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  });

  it('walks only a changed region (a merge patch\'s keys), in the whole object\'s document order', () => {
    const cm = 'io.k8s.api.core.v1.ConfigMap';
    // What a stored object would never hold, outside the region: not looked at.
    const outside = { metadata: { creationTimestamp: 'yesterday', labels: { a: 1 } }, data: { old: 2 } };
    expect(decodeErrorFor(cm, outside, { data: { k: 'v' } })).to.equal(undefined);
    expect(decodeErrorFor(cm, outside, { immutable: true })).to.equal(undefined);
    // Inside it, the first error in the object's order, as the whole walk reports it.
    const patched = { immutable: 1, metadata: { labels: { a: 'x', b: 2 } }, data: { k: 3 } };
    const region = { data: { k: 3 }, metadata: { labels: { b: 2 } }, immutable: 1 };
    expect(decodeErrorFor(cm, patched, region)).to.equal(decodeErrorFor(cm, patched))
      .and.to.equal('json: cannot unmarshal number into Go struct field ConfigMap.immutable of type bool');
    expect(decodeErrorFor(cm, patched, { data: {}, metadata: { labels: { b: 2 } } }))
      .to.equal('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    // A value that is not an object replaces the whole subtree: all of it is walked.
    expect(decodeErrorFor(cm, { metadata: { labels: { a: 1 } } }, { metadata: { labels: null } })).to.contain('ObjectMeta.metadata.labels');
    expect(decodeErrorFor('io.k8s.api.core.v1.Pod', { spec: { containers: [{ name: 'c', image: 5 }] } }, { spec: { containers: [] } }))
      .to.equal('json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string');
  });
});
