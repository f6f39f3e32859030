import { expect } from 'chai';
import pino from 'pino';
import type { Informer } from '../client/informer.js';
import type { ResourceClient } from '../client/interfaces.js';
import type { KubeObject } from '../runtime/object.js';
import { AvailabilityController } from './availability.js';
import { resolveCluster } from './resolver.js';

function fakeInformer(objs: KubeObject[]): Informer {
  const key = (ns: string, name: string) => (ns ? `${ns}/${name}` : name);
  const m = new Map(objs.map((o) => [key(o.metadata.namespace ?? '', o.metadata.name ?? ''), o]));
  return { get: (ns: string, name: string) => m.get(key(ns, name)), list: () => [...m.values()] } as unknown as Informer;
}

describe('APIService availability checks', () => {
  const services = fakeInformer([
    { metadata: { namespace: 'ns', name: 'svc' }, spec: { type: 'ClusterIP', clusterIP: '10.0.0.9', ports: [{ name: 'https', port: 443 }] } },
    { metadata: { namespace: 'ns', name: 'bare' }, spec: { type: 'ClusterIP', clusterIP: '10.0.0.8', ports: [{ port: 443 }] } },
  ]);
  const endpoints = fakeInformer([
    { metadata: { namespace: 'ns', name: 'svc' }, subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ name: 'http', port: 80 }] }] },
    { metadata: { namespace: 'ns', name: 'bare' }, subsets: [{ notReadyAddresses: [{ ip: '10.1.0.2' }], ports: [{ port: 443 }] }] },
  ]);
  const controller = new AvailabilityController({
    apiServices: fakeInformer([]), services, endpoints, client: {} as ResourceClient, log: pino({ level: 'silent' }),
    resolver: { resolve: (ns, name, port) => resolveCluster({ service: (n, s) => services.get(n, s), endpoints: () => undefined }, ns, name, port) },
    checkTransport: { rejectUnauthorized: false, connectTimeoutMs: 100 },
  });
  const remote = (name: string, port = 443): KubeObject => ({
    metadata: { name: 'v1.x.io' }, spec: { group: 'x.io', version: 'v1', service: { namespace: 'ns', name, port } },
  });

  it('reports local APIServices as Local', async () => {
    expect(await controller.check({ metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1' } }))
      .to.include({ status: 'True', reason: 'Local', message: 'Local APIServices are always available' });
  });

  it('names the failed check with upstream\'s reasons and messages', async () => {
    expect(await controller.check(remote('none'))).to.include({ status: 'False', reason: 'ServiceNotFound', message: 'service/none in "ns" is not present' });
    expect(await controller.check(remote('svc', 8443))).to.include({ reason: 'ServicePortError', message: 'service/svc in "ns" is not listening on port 8443' });
    expect(await controller.check(remote('svc'))).to.include({
      reason: 'MissingEndpoints', message: 'endpoints for service/svc in "ns" have no addresses with port name "https"',
    });
    expect(await controller.check(remote('bare'))).to.include({
      reason: 'MissingEndpoints', message: 'endpoints for service/bare in "ns" have no addresses with port name ""',
    });
  });
});
