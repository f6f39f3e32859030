// networking.k8s.io/v1: every fixture of the group replayed through its strategy and Table.
import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { storageSegment } from '../../runtime/scheme.js';
import type { ResourceDef } from '../rest/resource.js';
import { failure } from '../../../test/harness/failure.js';
import { createThrough, invalidFixture, objectFixture, tableFixture, withoutVolatile } from '../../../test/harness/surface.js';
import { ingressclasses } from './ingressclasses/index.js';
import { ingresses } from './ingresses/index.js';
import { networkpolicies } from './networkpolicies/index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const gv = 'networking.k8s.io_v1';
const cases: [ResourceDef, string, string][] = [[ingresses, 'ing', 'fixtures'], [ingressclasses, 'fixtures-ic', ''], [networkpolicies, 'np', 'fixtures']];

describe('networking.k8s.io/v1', () => {
  for (const [def, name, ns] of cases) {
    it(`${def.kind}: reproduces upstream's created ${name} and its Table`, () => {
      const { request, response } = objectFixture(gv, def.kind, name);
      expect(createThrough(def, request, ns)).to.deep.equal(withoutVolatile(response));
      const fx = tableFixture(gv, def.kind);
      expect(def.table!.columns.map(({ name: n, type, format, priority }) => ({ format, name: n, priority, type }))).to.deep.equal(fx.columnDefinitions);
      const ageAt = fx.rows[0][fx.columnDefinitions.findIndex((c) => c.name === 'Age')] as string;
      response.metadata.creationTimestamp = new Date(Date.now() - Number.parseInt(ageAt, 10) * 1000).toISOString();
      expect(def.table!.cells(response)).to.deep.equal(fx.rows[0]);
    });
  }

  it('Ingress: stored under /registry/ingress; ingress-bad-path-type is upstream\'s 422', () => {
    expect(storageSegment(ingresses)).to.equal('ingress');
    expect(ingresses.shortNames).to.deep.equal(['ing']);
    const fx = invalidFixture('ingress-bad-path-type');
    expect(failure(() => createThrough(ingresses, fx.request.body, 'fixtures')).toStatus()).to.deep.equal(fx.response);
  });

  it('Ingress: rules or default backend, absolute paths, one kind of backend and port', () => {
    expect(render(ingresses.strategy.validate({ metadata: { name: 'i', namespace: 'n' }, spec: {} }, {}))).to.deep.equal([
      'spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']);
    const svc = (port: Record<string, unknown>) => ({ service: { name: 'svc', port } });
    const errs = render(ingresses.strategy.validate({ metadata: { name: 'i', namespace: 'n', annotations: { 'kubernetes.io/ingress.class': 'x' } },
      spec: { ingressClassName: 'c', rules: [{ host: '1.2.3.4', http: { paths: [
        { path: 'a//b', pathType: 'Prefix', backend: svc({ name: 'http', number: 80 }) },
        { path: '/x', pathType: 'Exact', backend: svc({}) },
        { pathType: 'Exact', backend: {} },
      ] } }] } }, {}));
    expect(errs).to.deep.equal([
      'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
      'spec.rules[0].http.paths[0].path: Invalid value: "a//b": must be an absolute path',
      'spec.rules[0].http.paths[0].path: Invalid value: "a//b": must not contain \'//\'',
      'spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number',
      'spec.rules[0].http.paths[1].backend: Required value: port name or number is required',
      'spec.rules[0].http.paths[2].path: Invalid value: "": must be an absolute path',
      'spec.rules[0].http.paths[2].backend: Invalid value: "": resource or service backend is required',
      'annotations.kubernetes.io/ingress.class: Invalid value: "x": can not be set when the class field is also set',
    ]);
  });

  it('Ingress: generation follows the spec; status only through /status', () => {
    const old = createThrough(ingresses, objectFixture(gv, 'Ingress', 'ing').request, 'fixtures');
    const upd = structuredClone(old);
    (upd.spec as Record<string, unknown>).ingressClassName = 'other';
    upd.status = { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } };
    ingresses.strategy.prepareForUpdate(upd, old, {});
    expect([upd.metadata.generation, upd.status]).to.deep.equal([2, { loadBalancer: {} }]);
    const st = structuredClone(old);
    st.status = { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } };
    ingresses.strategy.prepareForUpdate(st, old, { subresource: 'status' });
    expect(ingresses.table!.cells(st).slice(3, 5)).to.deep.equal(['10.0.0.1', '80']);
  });

  it('IngressClass: domain-prefixed, immutable controller', () => {
    expect(render(ingressclasses.strategy.validate({ metadata: { name: 'c' }, spec: { controller: 'nopath' } }, {}))).to.deep.equal([
      'spec.controller: Invalid value: "nopath": must be a domain-prefixed path (such as "acme.io/foo")']);
    const old: KubeObject = { metadata: { name: 'c', resourceVersion: '1' }, spec: { controller: 'a.io/x' } };
    expect(render(ingressclasses.strategy.validateUpdate({ metadata: { name: 'c', resourceVersion: '1' }, spec: { controller: 'b.io/x' } }, old, {}))).to.deep.equal([
      'spec.controller: Invalid value: "b.io/x": field is immutable']);
    expect(ingressclasses.table!.cells({ metadata: { name: 'c' }, spec: { controller: 'a.io/x', parameters: { apiGroup: 'k8s.example.com', kind: 'P', name: 'p' } } })[2])
      .to.equal('P.k8s.example.com/p');
  });

  it('NetworkPolicy: policyTypes and TCP defaults, port checks, selector column', () => {
    const np: KubeObject = { metadata: { name: 'p', namespace: 'n' }, spec: { podSelector: { matchLabels: { app: 'web' } },
      egress: [{ ports: [{ port: 53, protocol: 'UDP' }, { port: 80 }] }] } };
    networkpolicies.strategy.applyDefaults(np);
    expect(np.spec).to.deep.equal({ podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress', 'Egress'],
      egress: [{ ports: [{ port: 53, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }] }] });
    expect(networkpolicies.table!.cells(np)[1]).to.equal('app=web');
    expect(render(networkpolicies.strategy.validate({ metadata: { name: 'p', namespace: 'n' }, spec: { podSelector: {}, policyTypes: ['Sideways'],
      ingress: [{ ports: [{ protocol: 'ICMP', port: 0 }, { port: 'http', endPort: 90 }] }] } }, {}))).to.deep.equal([
      'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
    ]);
  });
});
