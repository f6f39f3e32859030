import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ResourceDef } from '../../rest/resource.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../../../../test/harness/surface-objects.js';
import { mutatingwebhookconfigurations, validatingwebhookconfigurations } from './index.js';

const gv = 'admissionregistration.k8s.io_v1';

function created(def: ResourceDef, body: KubeObject): KubeObject {
  const obj = structuredClone(body);
  def.strategy.applyDefaults(obj);
  def.strategy.prepareForCreate(obj, {});
  expect(def.strategy.validate(obj, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([]);
  return obj;
}

function messages(def: ResourceDef, hook: Record<string, unknown>, name = 'w'): string[] {
  const obj = { apiVersion: 'admissionregistration.k8s.io/v1', kind: def.kind, metadata: { name }, webhooks: [hook] } as KubeObject;
  def.strategy.applyDefaults(obj);
  return def.strategy.validate(obj, {}).map((e) => fieldErrorMessage(e));
}

const good = {
  name: 'a.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { url: 'https://h/p' },
  rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
};

describe('webhook configurations', () => {
  for (const [def, name] of [[mutatingwebhookconfigurations, 'fixtures-mwc'], [validatingwebhookconfigurations, 'fixtures-vwc']] as const) {
    it(`${def.kind}: defaults reproduce upstream's fixture`, () => {
      const resp = fixtureObject(gv, def.kind, name, 'response');
      expect(created(def, fixtureObject(gv, def.kind, name, 'request'))).to.deep.equal(withoutRunValues(resp));
    });

    it(`${def.kind}: table NAME WEBHOOKS AGE as upstream`, () => {
      const table = fixtureTable(gv, def.kind);
      expect(def.table!.columns.map(({ name: n, type, format, priority }) => ({ name: n, type, format, priority })))
        .to.deep.equal(table.columnDefinitions);
      const resp = fixtureObject(gv, def.kind, name, 'response');
      const cells = def.table!.cells(resp);
      expect(cells.slice(0, 2)).to.deep.equal(table.rows[0].slice(0, 2));
    });
  }

  it('defaults service port 443 and leaves reinvocationPolicy to mutating hooks', () => {
    const v = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' },
      webhooks: [{ ...good, clientConfig: { service: { name: 's', namespace: 'n' } } }] } as KubeObject;
    validatingwebhookconfigurations.strategy.applyDefaults(v);
    const hook = (v.webhooks as Record<string, unknown>[])[0];
    expect(hook.clientConfig).to.deep.equal({ service: { name: 's', namespace: 'n', port: 443 } });
    expect(hook.reinvocationPolicy).to.equal(undefined);
  });

  it('requires a qualified name, sideEffects and admissionReviewVersions', () => {
    expect(messages(validatingwebhookconfigurations, { ...good, name: 'short.com', sideEffects: undefined, admissionReviewVersions: [] })).to.deep.equal([
      'webhooks[0].name: Invalid value: "short.com": should be a domain with at least three segments separated by dots',
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    ]);
    expect(messages(mutatingwebhookconfigurations, { ...good, sideEffects: 'Some', admissionReviewVersions: ['v2', 'v2'] })).to.deep.equal([
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
    ]);
  });

  it('refuses duplicate names, bad policies and timeouts', () => {
    const obj = { metadata: { name: 'm' }, webhooks: [
      { ...good, failurePolicy: 'Maybe', matchPolicy: 'Loose', reinvocationPolicy: 'Always', timeoutSeconds: 31 }, good] } as unknown as KubeObject;
    expect(mutatingwebhookconfigurations.strategy.validate(obj, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      'webhooks[1].name: Duplicate value: "a.example.com"',
    ]);
  });

  it('clientConfig: exactly one of url or service, https only, valid service path', () => {
    expect(messages(validatingwebhookconfigurations, { ...good, clientConfig: {} })).to.deep.equal([
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    ]);
    expect(messages(validatingwebhookconfigurations, { ...good, clientConfig: { url: 'http://u:p@h/x?q=1#f' } })).to.deep.equal([
      'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
    ]);
    expect(messages(validatingwebhookconfigurations, { ...good, clientConfig: { service: { name: 's', namespace: 'n', port: 0, path: 'a//B' } } })).to.deep.equal([
      'webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": must start with a \'/\'',
      // Upstream drops the first character whatever it is, so "a//B" checks "//B".
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ]);
  });

  it('checks rules: operations, wildcards, resources, scope', () => {
    expect(messages(validatingwebhookconfigurations, { ...good, rules: [
      { apiGroups: ['*', 'apps'], apiVersions: [], operations: ['*', 'PATCH'], resources: ['*/*', 'pods'], scope: 'Global' },
    ] })).to.deep.equal([
      'webhooks[0].rules[0].operations: Invalid value: []string{"*", "PATCH"}: if \'*\' is present, must not specify other operations',
      'webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other API groups',
      'webhooks[0].rules[0].apiVersions: Required value',
      'webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources',
      'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]);
  });

  it('an update keeps relaxed rules the stored object already broke', () => {
    const old = { metadata: { name: 'm', resourceVersion: '5' }, webhooks: [{ ...good, sideEffects: 'Unknown' }] } as unknown as KubeObject;
    const upd = structuredClone(old);
    expect(validatingwebhookconfigurations.strategy.validateUpdate(upd, old, {})).to.deep.equal([]);
    expect(validatingwebhookconfigurations.strategy.validate(upd, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
    ]);
  });
});
