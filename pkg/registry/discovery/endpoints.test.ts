// core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlices: upstream's fixtures, tables
// and validation messages, replayed through the strategies.
import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { storageSegment } from '../../runtime/scheme.js';
import type { ResourceDef } from '../rest/resource.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../test/harness/surface.js';
import { endpoints } from '../core/endpoints/index.js';
import { endpointslices } from './endpointslices/index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const meta = { name: 'x', namespace: 'n' };
const validate = (def: ResourceDef, body: Record<string, unknown>): string[] => {
  const obj = structuredClone({ metadata: { ...meta }, ...body }) as KubeObject;
  def.strategy.applyDefaults(obj);
  return render(def.strategy.validate(obj, {}));
};

describe('endpoints and endpointslices', () => {
  const cases: [ResourceDef, string, string][] = [[endpoints, 'v1', 'ep'], [endpointslices, 'discovery.k8s.io_v1', 'eps']];
  for (const [def, gv, name] of cases) {
    it(`${def.kind}: reproduces upstream's created ${name} and its Table`, () => {
      const { request, response } = objectFixture(gv, def.kind, name);
      expect(createThrough(def, request, 'fixtures')).to.deep.equal(withoutVolatile(response));
      const fx = tableFixture(gv, def.kind);
      expect(def.table!.columns.map(({ name: n, type, format, priority }) => ({ format, name: n, priority, type }))).to.deep.equal(fx.columnDefinitions);
      response.metadata.creationTimestamp = new Date().toISOString();
      expect(def.table!.cells(response)).to.deep.equal(fx.rows[0]);
    });
  }

  it('declares upstream discovery data and storage keys', () => {
    expect(endpoints).to.include({ plural: 'endpoints', singular: 'endpoints', namespaced: true });
    expect(endpoints.shortNames).to.deep.equal(['ep']);
    expect(endpoints.categories).to.equal(undefined);
    expect(storageSegment(endpoints)).to.equal('services/endpoints');
    expect(storageSegment(endpointslices)).to.equal('endpointslices');
    expect(endpointslices.shortNames).to.equal(undefined);
  });

  it('Endpoints: loopback, link-local, unspecified and malformed addresses are refused with upstream\'s messages', () => {
    expect(validate(endpoints, { subsets: [
      { addresses: [{ ip: '127.0.0.1' }, { ip: '169.254.1.1' }, { ip: '0.0.0.0' }, { ip: '::1' }, { ip: 'fe80::1' }, { ip: '224.0.0.5' }], ports: [{ port: 80 }] },
      { notReadyAddresses: [{ ip: 'nope', hostname: 'Bad_Host' }] },
      { ports: [{ port: 0, protocol: 'ICMP' }, { name: 'b', port: 1 }] },
    ] })).to.deep.equal([
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].addresses[1].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'subsets[0].addresses[2].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'subsets[0].addresses[3].ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].addresses[4].ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'subsets[0].addresses[5].ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      'subsets[1].notReadyAddresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[1].notReadyAddresses[0].hostname: Invalid value: "Bad_Host": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'subsets[1].notReadyAddresses[0].ip: Invalid value: "nope": must be a valid IP address',
      'subsets[2]: Required value: must specify `addresses` or `notReadyAddresses`',
      'subsets[2].ports[0].name: Required value',
      'subsets[2].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[2].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
  });

  it('Endpoints: subsets are repacked (addresses sharing ports merge, sorted, de-duplicated)', () => {
    const obj = createThrough(endpoints, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'r' }, subsets: [
      { addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'a', port: 80 }] },
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'a', port: 80 }] },
    ] }, 'n');
    expect(obj.subsets).to.deep.equal([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }] }]);
  });

  it('Endpoints table: three addresses, then "+ N more..."; bare IPs without ports', () => {
    const cell = (subsets: unknown) => endpoints.table!.cells({ metadata: { name: 'e' }, subsets } as KubeObject)[1];
    expect(cell(undefined)).to.equal('<none>');
    expect(cell([{ addresses: [{ ip: '10.0.0.1' }] }])).to.equal('10.0.0.1');
    expect(cell([{ addresses: ['1', '2', '3', '4'].map((i) => ({ ip: `10.0.0.${i}` })), ports: [{ port: 80 }, { port: 443 }] }]))
      .to.equal('10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 5 more...');
    expect(cell([{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 443 }] }])).to.equal('[fd00::1]:443');
  });

  it('EndpointSlice: address type, addresses, ports and names with upstream\'s messages', () => {
    expect(validate(endpointslices, { addressType: 'IPv4', endpoints: [
      { addresses: ['127.0.0.1', 'fd00::1', '10.0.0.1'], nodeName: 'Bad_Node', hints: { forZones: [{ name: 'a' }, { name: 'a' }] } },
      { addresses: [] },
    ], ports: [{ name: 'http', port: 80 }, { name: 'http', protocol: 'ICMP' }] })).to.deep.equal([
      'endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[0].addresses[1]: Invalid value: "fd00::1": must be a valid IPv4 address',
      'endpoints[0].nodeName: Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
      'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
      'endpoints[1].addresses: Required value: must contain at least 1 address',
      'ports[1].name: Duplicate value: "http"',
      'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
    expect(validate(endpointslices, { addressType: 'IP' })).to.deep.equal(['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
    expect(validate(endpointslices, {})).to.deep.equal(['addressType: Required value']);
    expect(validate(endpointslices, { addressType: 'FQDN', endpoints: [{ addresses: ['example.com', 'single'] }] }))
      .to.deep.equal(['endpoints[0].addresses[1]: Invalid value: "single": should be a domain with at least two segments separated by dots']);
  });

  it('EndpointSlice: addressType is immutable; generation grows with endpoints and labels', () => {
    const old = createThrough(endpointslices, objectFixture('discovery.k8s.io_v1', 'EndpointSlice', 'eps').request, 'fixtures');
    const s = endpointslices.strategy;
    const changed = { ...structuredClone(old), addressType: 'IPv6' } as KubeObject;
    s.prepareForUpdate(changed, old, {});
    expect(render(s.validateUpdate(changed, old, {}))).to.include('addressType: Invalid value: "IPv6": field is immutable');
    const relabeled = structuredClone(old);
    relabeled.metadata.labels = { 'kubernetes.io/service-name': 'svc' };
    s.prepareForUpdate(relabeled, old, {});
    expect(relabeled.metadata.generation).to.equal(2);
    const same = structuredClone(old);
    s.prepareForUpdate(same, old, {});
    expect(same.metadata.generation).to.equal(1);
  });

  it('EndpointSlice table: ports by number, name or "*", "<unset>" when none', () => {
    const cells = (o: Record<string, unknown>) => endpointslices.table!.cells({ metadata: { name: 's' }, ...o } as KubeObject).slice(1, 4);
    expect(cells({ addressType: 'IPv4' })).to.deep.equal(['IPv4', '<unset>', '<unset>']);
    expect(cells({ addressType: 'IPv4', ports: [{ port: 1 }, { name: 'h' }, {}, { port: 4 }],
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4', '10.0.0.5'] }] }))
      .to.deep.equal(['IPv4', '1,h,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...']);
  });
});
