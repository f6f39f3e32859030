import { expect } from 'chai';
import { fieldErrorMessage } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../test/harness/surface.js';
import { columnsOf } from '../../../test/harness/surface-fixtures.js';
import { priorityLevelToV1beta2, priorityLevelToV1beta3 } from './conversion.js';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from './bootstrap.js';
import { flowschemasV1beta2, flowschemasV1beta3, prioritylevelconfigurationsV1beta2, prioritylevelconfigurationsV1beta3 } from './index.js';

const gv = 'flowcontrol.apiserver.k8s.io_v1beta3';
const messages = (def: typeof flowschemasV1beta3, obj: KubeObject): string[] => def.strategy.validate(obj, {}).map((e) => fieldErrorMessage(e));

function fs(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name }, spec };
}

describe('flowcontrol.apiserver.k8s.io flowschemas and prioritylevelconfigurations', () => {
  it('reproduces upstream\'s created fixture objects', () => {
    for (const [kind, name, def] of [['FlowSchema', 'fixtures-fs', flowschemasV1beta3], ['PriorityLevelConfiguration', 'fixtures-plc', prioritylevelconfigurationsV1beta3]] as const) {
      const f = objectFixture(gv, kind, name);
      expect(createThrough(def, f.request), name).to.deep.equal(withoutVolatile(f.response));
    }
  });

  it('defaults both versions as upstream v1.28 does', () => {
    const pl = (shares: string): KubeObject => ({ metadata: { name: 'p' },
      spec: { type: 'Limited', limited: { [shares]: 0, limitResponse: { type: 'Queue', queuing: {} } } } });
    const v3 = pl('nominalConcurrencyShares');
    prioritylevelconfigurationsV1beta3.strategy.applyDefaults(v3);
    expect(v3.spec).to.deep.equal({ type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } } } });
    const v2 = pl('assuredConcurrencyShares');
    prioritylevelconfigurationsV1beta2.strategy.applyDefaults(v2);
    expect((v2.spec as { limited: Record<string, unknown> }).limited.assuredConcurrencyShares).to.equal(30);
    const exempt: KubeObject = { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: {} } };
    prioritylevelconfigurationsV1beta3.strategy.applyDefaults(exempt);
    expect(exempt.spec).to.deep.equal({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
    const schema = fs('s', {});
    flowschemasV1beta2.strategy.applyDefaults(schema);
    expect((schema.spec as Record<string, unknown>).matchingPrecedence).to.equal(1000);
  });

  it('converts the shares field between v1beta2 and v1beta3 and keeps everything else', () => {
    const stored: KubeObject = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'PriorityLevelConfiguration', metadata: { name: 'p', annotations: { a: 'b' } },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 7, lendablePercent: 10, borrowingLimitPercent: 20, limitResponse: { type: 'Reject' } } }, status: {} };
    const v2 = priorityLevelToV1beta2(stored);
    expect(v2.apiVersion).to.equal('flowcontrol.apiserver.k8s.io/v1beta2');
    expect(Object.keys((v2.spec as { limited: object }).limited)).to.deep.equal(['assuredConcurrencyShares', 'lendablePercent', 'borrowingLimitPercent', 'limitResponse']);
    expect((v2.spec as { limited: Record<string, unknown> }).limited.assuredConcurrencyShares).to.equal(7);
    expect(priorityLevelToV1beta3(v2)).to.deep.equal(stored);
    expect(stored.spec).to.have.nested.property('limited.nominalConcurrencyShares', 7);
  });

  it('validates with upstream\'s paths and messages', () => {
    expect(messages(flowschemasV1beta3, fs('system-foo', { matchingPrecedence: 1, priorityLevelConfiguration: { name: '' }, distinguisherMethod: { type: 'ByFoo' },
      rules: [{ subjects: [{ kind: 'ServiceAccount', user: { name: 'fred' } }] },
        { subjects: [], resourceRules: [{ verbs: ['*', 'create'], apiGroups: ['*', 'x'], resources: [], namespaces: ['Bad_NS'] }],
          nonResourceRules: [{ verbs: ['fly'], nonResourceURLs: ['healthz', '/a/*/b'] }] }] }))).to.deep.equal([
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByFoo"}: supported values: "ByNamespace", "ByUser"',
      'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
      "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
      "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
      'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
      'spec.rules[1].subjects: Required value: subjects must contain at least one value',
      'spec.rules[1].resourceRules[0].verbs: Invalid value: []string{"*", "create"}: if \'*\' is present, must not specify other verbs',
      'spec.rules[1].resourceRules[0].apiGroups: Invalid value: []string{"*", "x"}: if \'*\' is present, must not specify other api groups',
      'spec.rules[1].resourceRules[0].resources: Required value: resource rules must supply at least one resource',
      "spec.rules[1].resourceRules[0].namespaces[0]: Invalid value: \"Bad_NS\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.rules[1].nonResourceRules[0].verbs: Unsupported value: []string{"fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
      'spec.rules[1].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash',
      'spec.rules[1].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a/*/b": wildcard can only do suffix matching',
    ]);
    const badPL = (shares: string): KubeObject => ({ metadata: { name: 'p' }, spec: { type: 'Limited', exempt: {},
      limited: { [shares]: -1, lendablePercent: 101, borrowingLimitPercent: -1, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 60, queueLengthLimit: 0 } } } } });
    const expected = (shares: string) => [
      'spec.exempt: Forbidden: must be nil if the type is Limited',
      `spec.limited.${shares}: Invalid value: -1: must be positive`,
      'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: 0: must be positive',
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 60: required entropy bits of deckSize 128 and handSize 60 should not be greater than 60',
      'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
      'spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer',
    ];
    expect(messages(prioritylevelconfigurationsV1beta3, badPL('nominalConcurrencyShares'))).to.deep.equal(expected('nominalConcurrencyShares'));
    expect(messages(prioritylevelconfigurationsV1beta2, badPL('assuredConcurrencyShares'))).to.deep.equal(expected('assuredConcurrencyShares'));
    expect(messages(prioritylevelconfigurationsV1beta3, { metadata: { name: 'p' }, spec: { type: 'Exempt' } }))
      .to.deep.equal(["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"]);
  });

  it('holds the mandatory objects to their fixed spec, except the exempt level\'s exempt settings', () => {
    const catchAll = structuredClone(mandatoryFlowSchemas.find((o) => o.metadata.name === 'catch-all')!);
    expect(messages(flowschemasV1beta3, catchAll)).to.deep.equal([]);
    (catchAll.spec as Record<string, unknown>).matchingPrecedence = 9999;
    expect(messages(flowschemasV1beta3, catchAll)).to.have.length(1).and.satisfy((m: string[]) => m[0]!.startsWith('spec: Invalid value: ')
      && m[0]!.endsWith(": spec of 'catch-all' must equal the fixed value"));
    const exempt = structuredClone(mandatoryPriorityLevels.find((o) => o.metadata.name === 'exempt')!);
    (exempt.spec as Record<string, unknown>).exempt = { nominalConcurrencyShares: 10, lendablePercent: 50 };
    expect(messages(prioritylevelconfigurationsV1beta3, exempt)).to.deep.equal([]);
    const catchAllPL = priorityLevelToV1beta2(mandatoryPriorityLevels.find((o) => o.metadata.name === 'catch-all')!);
    expect(messages(prioritylevelconfigurationsV1beta2, catchAllPL)).to.deep.equal([]);
    (catchAllPL.spec as { limited: Record<string, unknown> }).limited.assuredConcurrencyShares = 6;
    expect(messages(prioritylevelconfigurationsV1beta2, catchAllPL)[0]).to.match(/spec of 'catch-all' must equal the fixed value$/);
  });

  it('bootstrap objects are valid and need no defaulting', () => {
    for (const obj of [...mandatoryFlowSchemas, ...suggestedFlowSchemas]) {
      expect(createThrough(flowschemasV1beta3, obj).spec, obj.metadata.name).to.deep.equal(obj.spec);
    }
    for (const obj of [...mandatoryPriorityLevels, ...suggestedPriorityLevels]) {
      expect(createThrough(prioritylevelconfigurationsV1beta3, obj).spec, obj.metadata.name).to.deep.equal(obj.spec);
    }
  });

  it('prints upstream\'s columns and rows, flow schemas in matching order', () => {
    for (const [kind, def] of [['FlowSchema', flowschemasV1beta3], ['PriorityLevelConfiguration', prioritylevelconfigurationsV1beta3]] as const) {
      expect(columnsOf(def), kind).to.deep.equal(tableFixture(gv, kind).columnDefinitions);
    }
    const found = (o: KubeObject): KubeObject => ({ ...o, status: { conditions: [{ type: 'Dangling', status: 'False' }] } });
    const fixtureFS = objectFixture(gv, 'FlowSchema', 'fixtures-fs').response;
    const schemas = [...mandatoryFlowSchemas, ...suggestedFlowSchemas, fixtureFS].map(found)
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
    const sorted = [...schemas].sort(flowschemasV1beta3.table!.sortRows!);
    const want = tableFixture(gv, 'FlowSchema').rows;
    expect(sorted.map((o) => flowschemasV1beta3.table!.cells(o)).map((c) => [...c.slice(0, 4), c[5]]))
      .to.deep.equal(want.map((c) => [...c.slice(0, 4), c[5]]));
    const levels = [...mandatoryPriorityLevels, ...suggestedPriorityLevels, objectFixture(gv, 'PriorityLevelConfiguration', 'fixtures-plc').response]
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
    const plRows = tableFixture(gv, 'PriorityLevelConfiguration').rows;
    expect(levels.map((o) => prioritylevelconfigurationsV1beta3.table!.cells(o).slice(0, 6))).to.deep.equal(plRows.map((r) => r.slice(0, 6)));
    expect(prioritylevelconfigurationsV1beta2.table!.cells(priorityLevelToV1beta2(levels[0]!))[2]).to.equal(5);
    expect(flowschemasV1beta3.table!.cells(fixtureFS)[5]).to.equal('?');
  });
});
