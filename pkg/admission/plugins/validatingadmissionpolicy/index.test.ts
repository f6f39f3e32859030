import { expect } from 'chai';
import type { KubeObject } from '../../../runtime/object.js';
import { StatusError } from '../../../runtime/errors.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import { ValidatingAdmissionPolicy, validationFailureAnnotation } from './index.js';
import type { ParamSource } from './params.js';

const cache = (items: KubeObject[]) => ({ list: () => [...items], hasSynced: () => true, waitForSync: async () => {} });

function policy(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy',
    metadata: { name, resourceVersion: '1', generation: 1 },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {},
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'], scope: '*' }],
      },
      ...spec,
    },
  };
}

function binding(name: string, policyName: string, actions: string[], extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name }, spec: { policyName, validationActions: actions, ...extra } } as KubeObject;
}

function attrs(replicas: number, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE', group: 'apps', version: 'v1', kind: 'Deployment', resource: 'deployments', subresource: '',
    namespace: 'ns1', name: 'd1',
    object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd1', namespace: 'ns1', labels: { tier: 'web' } }, spec: { replicas } },
    user: { name: 'alice', groups: ['devs'] }, dryRun: false, warnings: [], auditAnnotations: {},
    ...extra,
  };
}

const configMaps: KubeObject[] = [
  { metadata: { name: 'a', namespace: 'params', labels: { use: 'yes' } }, data: { max: '3' } },
  { metadata: { name: 'b', namespace: 'params', labels: { use: 'yes' } }, data: { max: '5' } },
];
const cmSource: ParamSource = {
  namespaced: true, ready: async () => {},
  get: (ns, n) => configMaps.find((c) => c.metadata.namespace === ns && c.metadata.name === n),
  list: (ns) => configMaps.filter((c) => c.metadata.namespace === ns),
};

function plugin(policies: KubeObject[], bindings: KubeObject[]): ValidatingAdmissionPolicy {
  return new ValidatingAdmissionPolicy({
    policies: cache(policies), bindings: cache(bindings),
    match: {
      namespace: async (n) => ({ metadata: { name: n, labels: { env: n === 'ns1' ? 'prod' : 'dev' } } }),
      servedVersions: () => ['v1'],
    },
    params: (apiVersion, kind) => (apiVersion === 'v1' && kind === 'ConfigMap' ? cmSource : undefined),
    authorizer: { name: 'test', authorize: async (a) => ({ decision: a.verb === 'get' ? 'allow' : 'noOpinion', reason: '' }) },
  });
}

async function rejection(p: ValidatingAdmissionPolicy, a: AdmissionAttributes): Promise<StatusError> {
  try {
    await p.validate(a);
  } catch (err) {
    expect(err).to.be.instanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error('expected a rejection');
}

describe('ValidatingAdmissionPolicy plugin', () => {
  it('records an Audit binding\'s failure as the validation_failure annotation and admits', async () => {
    const a = attrs(9);
    await plugin([policy('p', { validations: [{ expression: 'true' }, { expression: 'object.spec.replicas < 5', message: 'too many' }] })],
      [binding('b', 'p', ['Audit'])]).validate(a);
    expect(JSON.parse(a.auditAnnotations![validationFailureAnnotation]!)).to.deep.equal([
      { message: 'too many', policy: 'p', binding: 'b', expressionIndex: 1, validationActions: ['Audit'] },
    ]);
  });

  it('publishes auditAnnotations under <policy>/<key>, skipping null values', async () => {
    const a = attrs(2);
    await plugin([policy('p', { auditAnnotations: [
      { key: 'replicas', valueExpression: "'replicas: ' + string(object.spec.replicas)" },
      { key: 'none', valueExpression: 'null' },
    ] })], [binding('b', 'p', ['Deny'])]).validate(a);
    expect(a.auditAnnotations).to.deep.equal({ 'p/replicas': 'replicas: 2' });
  });

  it('turns an evaluation error into a denial under Fail and into nothing under Ignore', async () => {
    const spec = { validations: [{ expression: 'object.spec.nope > 1' }] };
    const err = await rejection(plugin([policy('p', spec)], [binding('b', 'p', ['Deny'])]), attrs(1));
    expect(err.code).to.equal(422);
    expect(err.message).to.equal("deployments.apps \"d1\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.spec.nope > 1' resulted in error: no such key: nope");
    await plugin([policy('p', { ...spec, failurePolicy: 'Ignore' })], [binding('b', 'p', ['Deny'])]).validate(attrs(1));
  });

  it('evaluates once per param a selector picks, and uses messageExpression and reason', async () => {
    const p = plugin([policy('p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'max ' + params.data.max", reason: 'Forbidden' }],
    })], [binding('b', 'p', ['Deny'], { paramRef: { namespace: 'params', selector: { matchLabels: { use: 'yes' } }, parameterNotFoundAction: 'Deny' } })]);
    const err = await rejection(p, attrs(4));
    expect(err.code).to.equal(403);
    expect(err.reason).to.equal('Forbidden');
    expect(err.message).to.contain('denied request: max 3');
    await p.validate(attrs(3));
  });

  it('admits without evaluating when no param is found and the action is Allow', async () => {
    await plugin([policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'false' }] })],
      [binding('b', 'p', ['Deny'], { paramRef: { name: 'missing', parameterNotFoundAction: 'Allow' } })]).validate(attrs(1));
  });

  it('evaluates with params null when the binding has no paramRef', async () => {
    const p = plugin([policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'params == null', message: 'params set' }] })],
      [binding('b', 'p', ['Deny'])]);
    await p.validate(attrs(1));
  });

  it('reports a paramKind the server does not serve as a policy configuration error', async () => {
    const err = await rejection(plugin([policy('p', { paramKind: { apiVersion: 'example.com/v1', kind: 'Limits' }, validations: [{ expression: 'true' }] })],
      [binding('b', 'p', ['Deny'], { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } })]), attrs(1));
    expect(err.message).to.contain("ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limits'");
  });

  it('evaluates variables lazily and skips the policy when a matchCondition is false', async () => {
    const spec = {
      variables: [{ name: 'limit', expression: '2' }, { name: 'over', expression: 'object.spec.replicas > variables.limit' }],
      matchConditions: [{ name: 'web-only', expression: "object.metadata.labels.tier == 'web'" }],
      validations: [{ expression: '!variables.over', message: 'over the limit' }],
    };
    const p = plugin([policy('p', spec)], [binding('b', 'p', ['Deny'])]);
    expect((await rejection(p, attrs(3))).message).to.contain('denied request: over the limit');
    const other = attrs(3);
    other.object!.metadata.labels = { tier: 'db' };
    await p.validate(other);
  });

  it('applies binding matchResources, namespaceObject, excludeResourceRules and the authorizer', async () => {
    const p = plugin([policy('p', {
      validations: [
        { expression: "namespaceObject.metadata.labels.env != 'prod' || object.spec.replicas >= 2", message: 'prod needs 2' },
        { expression: "authorizer.group('apps').resource('deployments').check('get').allowed() && !authorizer.requestResource.check('delete').allowed()", message: 'authz' },
      ],
    })], [binding('b', 'p', ['Deny'], { matchResources: { objectSelector: { matchLabels: { tier: 'web' } } } })]);
    expect((await rejection(p, attrs(1))).message).to.contain('prod needs 2');
    await p.validate(attrs(1, { namespace: 'ns2' }));
    await p.validate(attrs(3));
    const excluded = plugin([policy('p', { validations: [{ expression: 'false' }] })], [binding('b', 'p', ['Deny'], {
      matchResources: { excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['*'], operations: ['CREATE'], resources: ['deployments'], resourceNames: ['d1'] }] },
    })]);
    await excluded.validate(attrs(1));
    await rejection(excluded, attrs(1, { name: 'd2' }));
  });

  it('never applies to admission configuration resources, nor to subresources a rule does not name', async () => {
    const p = plugin([policy('p', { validations: [{ expression: 'false' }] })], [binding('b', 'p', ['Deny'])]);
    await p.validate(attrs(1, { subresource: 'scale' }));
    await p.validate(attrs(1, { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' }));
    const err = await rejection(p, attrs(1));
    expect(err.message).to.contain('denied request: failed expression: false');
  });
});
