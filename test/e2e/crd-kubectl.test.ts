// CustomResourceDefinitions driven by the real kubectl v1.28 through two replicas:
// apply a YAML definition, get (server table, short name), describe, wait for the
// Established condition, refused invalid definitions, delete (which waits for the
// cleanup finalizer to go).
import { expect } from 'chai';
import { kubectlOn, startReplicas, type Cluster } from '../harness/index.js';

const crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
              replicas:
                type: integer
`;

describe('e2e kubectl: customresourcedefinitions', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const { k, ok } = kubectlOn(() => cluster);

  before(async () => { cluster = await startReplicas(2, { etcd: 'mutual-tls' }); });
  after(async () => { await cluster?.stop(); });

  it('applies, gets, describes, waits for established and deletes a CRD', async () => {
    expect(await ok(['apply', '-f', '-'], crdYAML)).to.equal('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
    expect(await ok(['wait', '--for', 'condition=established', '--timeout=10s', 'crd/crontabs.stable.example.com'], undefined, 1))
      .to.equal('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n');
    const out = await ok(['get', 'crd'], undefined, 1);
    expect(out.split('\n')[0].split(/\s+/)).to.deep.equal(['NAME', 'CREATED', 'AT']);
    expect(out).to.match(/^crontabs\.stable\.example\.com\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    const desc = await ok(['describe', 'crds', 'crontabs.stable.example.com']);
    expect(desc).to.match(/^Name:\s+crontabs\.stable\.example\.com$/m);
    expect(desc).to.match(/^API Version:\s+apiextensions\.k8s\.io\/v1$/m);
    expect(desc).to.match(/^Kind:\s+CustomResourceDefinition$/m);
    expect(desc).to.match(/Accepted Names:\n\s+Kind:\s+CronTab\n\s+List Kind:\s+CronTabList\n\s+Plural:\s+crontabs\n\s+Short Names:\n\s+ct\n\s+Singular:\s+crontab/);
    expect(desc).to.match(/Reason:\s+InitialNamesAccepted/);
    expect(desc).to.match(/Stored Versions:\n\s+v1/);
    expect(await ok(['get', 'crd', 'crontabs.stable.example.com', '-o', 'jsonpath={.status.conditions[*].type}'], undefined, 1)).to.equal('NamesAccepted Established');
    expect(await ok(['delete', 'crd', 'crontabs.stable.example.com'], undefined, 1))
      .to.equal('customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n');
    const gone = await k(['get', 'crd', 'crontabs.stable.example.com']);
    expect(gone.code).to.not.equal(0);
    expect(gone.stderr).to.include('customresourcedefinitions.apiextensions.k8s.io "crontabs.stable.example.com" not found');
  });

  it('refuses an invalid CRD with upstream\'s message', async () => {
    const bad = await k(['apply', '-f', '-'], crdYAML.replace('type: integer', 'minimum: 1').replace('kind: CronTab', 'kind: CronTab\n    listKind: CronTab'), 1);
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.include('The CustomResourceDefinition "crontabs.stable.example.com" is invalid: \n'
      + '* spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same\n'
      + '* spec.validation.openAPIV3Schema.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields');
  });
});
