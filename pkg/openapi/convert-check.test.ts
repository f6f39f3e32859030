import { expect } from 'chai';
import { conversionProblemOf } from './convert-check.js';

const deployment = (spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec });
const problem = (obj: unknown, region?: Record<string, unknown>) => conversionProblemOf('apps', 'v1', 'Deployment', obj, region);

describe('conversionProblemOf (a strategic merge patch result converted into the kind)', () => {
  it('converts what the typed decoder takes, integral floats and nulls included', () => {
    expect(problem(deployment({ replicas: 3, paused: true, selector: null, strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } }))).to.equal(undefined);
  });

  it('words each mismatch as the unstructured converter does', () => {
    expect(problem(deployment({ replicas: 'x' }))).to.equal('unrecognized type: int32');
    expect(problem(deployment({ replicas: 1.5 }))).to.equal('cannot convert float64 to int32');
    expect(problem(deployment({ paused: 1 }))).to.equal('unrecognized type: bool');
    expect(problem(deployment({ template: 'x' }))).to.equal('cannot restore struct from: string');
    expect(problem(deployment({ selector: { matchLabels: [] } }))).to.equal('cannot restore map from slice');
    expect(problem(deployment({ selector: { matchLabels: { a: 1 } } }))).to.equal('cannot convert int64 to string');
    expect(problem(deployment({ selector: { matchLabels: { a: 1.5 } } }))).to.equal('unrecognized type: string');
    expect(problem(deployment({ selector: { matchExpressions: {} } }))).to.equal('cannot restore slice from map');
    expect(problem(deployment({ strategy: { rollingUpdate: { maxSurge: 2.5 } } }))).to.equal('json: cannot unmarshal number 2.5 into Go value of type int32');
    expect(problem({ metadata: { creationTimestamp: true } })).to.equal('json: cannot unmarshal bool into Go value of type string');
    expect(problem({ metadata: { creationTimestamp: 5 } })).to.equal('json: cannot unmarshal number into Go value of type string');
  });

  it('wraps an integer that does not fit an int32 field to its low 32 bits, as Go\'s conversion does, in place', () => {
    const obj = deployment({ replicas: 4294967296, minReadySeconds: 2147483648, progressDeadlineSeconds: 3e9, revisionHistoryLimit: 1e30,
      template: { spec: { activeDeadlineSeconds: 4294967296, containers: [{ name: 'c', ports: [{ containerPort: 4294967377 }] }] } } });
    expect(problem(obj)).to.equal(undefined);
    expect(obj.spec).to.deep.equal({ replicas: 0, minReadySeconds: -2147483648, progressDeadlineSeconds: -1294967296, revisionHistoryLimit: 0,
      template: { spec: { activeDeadlineSeconds: 4294967296, containers: [{ name: 'c', ports: [{ containerPort: 81 }] }] } } });
    // Between 2^53 and 2^63 the number is not the literal's value: left as it is.
    const unsafe = deployment({ replicas: 2 ** 60 });
    expect(problem(unsafe)).to.equal(undefined);
    expect(unsafe.spec.replicas).to.equal(2 ** 60);
  });

  it('makes a number past int64 in an int64 field int64\'s min (a float64 converted on amd64), 2^63 only where the patch wrote a float there', () => {
    const past = () => deployment({ template: { spec: { activeDeadlineSeconds: 1e19, terminationGracePeriodSeconds: -1e19,
      securityContext: { runAsUser: 2 ** 63 } } } });
    const obj = past();
    expect(problem(obj)).to.equal(undefined);
    expect(obj.spec.template).to.deep.equal({ spec: { activeDeadlineSeconds: -(2 ** 63), terminationGracePeriodSeconds: -(2 ** 63),
      securityContext: { runAsUser: 2 ** 63 } } });
    const float = past();
    expect(conversionProblemOf('apps', 'v1', 'Deployment', float, true, true)).to.equal(undefined);
    expect((float.spec.template as { spec: { securityContext: unknown } }).spec.securityContext).to.deep.equal({ runAsUser: -(2 ** 63) });
  });

  it('looks only where the patch named', () => {
    const obj = deployment({ replicas: 'x', paused: true });
    expect(problem(obj, { spec: { paused: true } })).to.equal(undefined);
    expect(problem(obj, { spec: { replicas: 'x' } })).to.equal('unrecognized type: int32');
  });
});
