import { expect } from 'chai';
import type { KubeObject } from '../runtime/object.js';
import { resolveCluster, resolveEndpoint, serviceResolver, type ServiceLookup } from './resolver.js';

function lookup(services: Record<string, unknown>, endpoints: Record<string, unknown> = {}): ServiceLookup {
  const obj = (name: string, v: unknown) => (v === undefined ? undefined : { metadata: { name }, ...(v as object) } as KubeObject);
  return {
    service: (ns, name) => obj(name, services[`${ns}/${name}`]),
    endpoints: (ns, name) => obj(name, endpoints[`${ns}/${name}`]),
  };
}

describe('aggregator service resolution', () => {
  const l = lookup({
    'ns/ip': { spec: { type: 'ClusterIP', clusterIP: '10.0.0.12', ports: [{ name: 'https', port: 443 }] } },
    'ns/headless': { spec: { type: 'ClusterIP', clusterIP: 'None', ports: [{ port: 443 }] } },
    'ns/ext': { spec: { type: 'ExternalName', externalName: 'localhost' } },
    'ns/v6': { spec: { type: 'NodePort', clusterIP: 'fd00::5', ports: [{ port: 8443 }] } },
  }, {
    'ns/ip': { subsets: [{ addresses: [], ports: [{ name: 'https', port: 6443 }] }, { addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'metrics', port: 9090 }, { name: 'https', port: 6443 }] }] },
  });

  it('routes to the cluster IP and the service port, or to the external name and the APIService port', () => {
    expect(resolveCluster(l, 'ns', 'ip', 443).href).to.equal('https://10.0.0.12/');
    expect(resolveCluster(l, 'ns', 'ext', 31443).host).to.equal('localhost:31443');
    expect(resolveCluster(l, 'ns', 'v6', 8443).host).to.equal('[fd00::5]:8443');
  });

  it('fails as upstream does', () => {
    expect(() => resolveCluster(l, 'ns', 'gone', 443)).to.throw('services "gone" not found');
    expect(() => resolveCluster(l, 'ns', 'headless', 443)).to.throw('cannot route to service with ClusterIP "None"');
    expect(() => resolveCluster(l, 'ns', 'ip', 8443)).to.throw('no service port 8443 found for service "ip"');
    expect(() => resolveEndpoint(l, 'ns', 'ext', 443)).to.throw('unsupported service type "ExternalName"');
  });

  it('routes to an endpoint address with the service port\'s name (--enable-aggregator-routing)', () => {
    expect(resolveEndpoint(l, 'ns', 'ip', 443, () => 0).host).to.equal('10.1.2.3:6443');
    expect(resolveEndpoint(l, 'ns', 'ip', 443, () => 0.99).host).to.equal('10.1.2.3:6443');
    const none = lookup({ 'ns/s': { spec: { clusterIP: '10.0.0.1', ports: [{ port: 443 }] } } }, { 'ns/s': { subsets: [] } });
    expect(() => resolveEndpoint(none, 'ns', 's', 443)).to.throw('no endpoints available for service "s"');
    expect(() => resolveEndpoint(l, 'ns', 'v6', 8443)).to.throw('endpoints "v6" not found');
  });

  it('sends the kubernetes Service on 443 to this server', () => {
    const r = serviceResolver(l, { endpointRouting: false, loopback: () => new URL('https://127.0.0.1:6443') });
    expect(r.resolve('default', 'kubernetes', 443).host).to.equal('127.0.0.1:6443');
    expect(r.resolve('ns', 'ip', 443).host).to.equal('10.0.0.12');
  });
});
