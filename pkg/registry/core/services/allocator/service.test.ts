// The allocators against a real etcd (one key prefix per test), below the HTTP layer.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import pino from 'pino';
import { testEtcdClient, uniquePrefix } from '../../../../../test/harness/index.js';
import { StatusError } from '../../../../runtime/errors.js';
import type { KubeObject } from '../../../../runtime/object.js';
import { ServiceStrategy } from '../strategy.js';
import { buildServiceAllocators, rangeKeys } from './index.js';
import { AllocationRepair } from './repair.js';
import { ServiceAllocator, type ServiceAllocators } from './service.js';

const log = pino({ level: 'silent' });
/** Specs are read field by field below. */
type Svc = KubeObject & { spec: any };

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (err) { if (err instanceof StatusError) return err; throw err; }
  throw new Error('expected a StatusError');
}

describe('service allocator (etcd)', function () {
  this.timeout(30_000);
  let client: Etcd3;
  let prefix: string;
  let allocators: ServiceAllocators;
  let alloc: ServiceAllocator;
  let strategy: ServiceStrategy;

  const setup = (ipRange: string, portRange = '30000-30003'): void => {
    prefix = uniquePrefix('alloc');
    allocators = buildServiceAllocators({ client, etcdPrefix: prefix, serviceClusterIPRange: ipRange, serviceNodePortRange: portRange });
    alloc = new ServiceAllocator(allocators);
    strategy = new ServiceStrategy({ families: alloc.families });
  };
  const svc = (name: string, spec: Record<string, unknown> = {}): Svc => {
    const obj: Svc = { metadata: { name, namespace: 'ns' }, spec: { ports: [{ port: 80 }], selector: { a: 'b' }, ...spec } };
    strategy.applyDefaults(obj);
    strategy.prepareForCreate(obj, { namespace: 'ns' });
    return obj;
  };
  const create = async (obj: Svc): Promise<Svc> => { await (await alloc.allocateCreate(obj, false)).commit(); return obj; };
  const keys = async (which: 'ips' | 'nodePorts'): Promise<string[]> => {
    const p = rangeKeys(prefix)[which];
    return (await client.getAll().prefix(p).keys()).map((k) => k.slice(p.length)).sort();
  };

  before(async () => { client = await testEtcdClient(); });
  after(() => client.close());

  it('hands out every usable IPv4 address once, then fails as upstream', async () => {
    setup('10.0.0.0/29');
    const got: string[] = [];
    for (let i = 0; i < 6; i++) got.push((await create(svc(`s${i}`))).spec.clusterIP as string);
    expect(got.slice().sort()).to.deep.equal(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
    const err = await failure(alloc.allocateCreate(svc('full'), false));
    expect(err.toStatus()).to.deep.include({ code: 500, reason: 'InternalError', message: 'Internal error occurred: failed to allocate a serviceIP: range is full' });
    expect(await keys('ips')).to.deep.equal(got.slice().sort());
  });

  it('refuses requested IPs that are out of range or taken, with upstream\'s field errors', async () => {
    setup('10.96.0.0/16');
    await create(svc('a', { clusterIP: '10.96.5.5' }));
    const taken = await failure(alloc.allocateCreate(svc('b', { clusterIP: '10.96.5.5' }), false));
    expect(taken.toStatus().message).to.equal('Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.5.5"}: failed to allocate IP 10.96.5.5: provided IP is already allocated');
    for (const ip of ['10.96.0.0', '10.96.255.255', '192.168.1.1']) {
      const err = await failure(alloc.allocateCreate(svc('c', { clusterIP: ip }), false));
      expect(err.toStatus().message).to.equal(`Service "c" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.96.0.0/16`);
    }
    const single = await failure(alloc.allocateCreate(svc('d', { ipFamilyPolicy: 'RequireDualStack' }), false));
    expect(single.toStatus().message).to.equal('Service "d" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services');
    expect(await keys('ips')).to.deep.equal(['10.96.5.5']);
  });

  it('dual-stack: PreferDualStack and RequireDualStack get one IP per family, SingleStack one', async () => {
    setup('10.96.0.0/16,fd00:96::/112');
    const dual = await create(svc('dual', { ipFamilyPolicy: 'RequireDualStack' }));
    expect(dual.spec.ipFamilies).to.deep.equal(['IPv4', 'IPv6']);
    const ips = dual.spec.clusterIPs as string[];
    expect(ips).to.have.length(2);
    expect(ips[0]).to.match(/^10\.96\./);
    expect(ips[1]).to.match(/^fd00:96::/);
    expect(dual.spec.clusterIP).to.equal(ips[0]);
    const v6 = await create(svc('v6', { ipFamilies: ['IPv6'] }));
    expect(v6.spec.clusterIPs as string[]).to.have.length(1);
    expect((v6.spec.clusterIPs as string[])[0]).to.match(/^fd00:96::/);
    const headless = await create(svc('h', { clusterIP: 'None' }));
    expect(headless.spec.clusterIPs).to.deep.equal(['None']);
    expect((await keys('ips')).length).to.equal(3);
    await alloc.release(dual);
    expect(await keys('ips')).to.deep.equal([(v6.spec.clusterIPs as string[])[0]]);
  });

  it('dual-stack updates: SingleStack drops and gives back the secondary IP, other policies may not drop it', async () => {
    setup('10.96.0.0/16,fd00:96::/112');
    const old = await create(svc('dual', { ipFamilyPolicy: 'PreferDualStack' }));
    const [v4, v6] = old.spec.clusterIPs as string[];
    const shrink = structuredClone(old);
    shrink.spec.clusterIPs = [v4];
    const refused = await failure(alloc.allocateUpdate(shrink, old, false));
    expect(refused.toStatus().message).to.equal('Service "dual" is invalid: spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be \'SingleStack\' to release the secondary cluster IP');
    const single = structuredClone(old);
    single.spec.ipFamilyPolicy = 'SingleStack';
    await (await alloc.allocateUpdate(single, old, false)).commit();
    expect(single.spec).to.deep.include({ clusterIPs: [v4], ipFamilies: ['IPv4'] });
    expect(await keys('ips')).to.deep.equal([v4]);
    const upgrade = structuredClone(single);
    Object.assign(upgrade.spec, { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    await (await alloc.allocateUpdate(upgrade, single, false)).commit();
    expect(upgrade.spec.clusterIPs[0]).to.equal(v4);
    expect(upgrade.spec.clusterIPs[1]).to.match(/^fd00:96::/);
    expect(await keys('ips')).to.have.members([v4, upgrade.spec.clusterIPs[1]]);
    expect(v6).to.match(/^fd00:96::/);
  });

  it('node ports: shared by ports with one number, range full and out of range as upstream', async () => {
    setup('10.0.0.0/24', '30000-30003');
    const two = await create(svc('np', { type: 'NodePort', ports: [{ name: 'a', port: 53, protocol: 'UDP' }, { name: 'b', port: 53, protocol: 'TCP' }, { name: 'c', port: 80 }] }));
    const nps = (two.spec.ports as Array<{ nodePort: number }>).map((p) => p.nodePort);
    expect(nps[0]).to.equal(nps[1]);
    expect(nps[2]).to.not.equal(nps[0]);
    const out = await failure(alloc.allocateCreate(svc('o', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }), false));
    expect(out.toStatus().message).to.equal('Service "o" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-30003');
    const taken = await failure(alloc.allocateCreate(svc('t', { type: 'NodePort', ports: [{ port: 80, nodePort: nps[2] }] }), false));
    expect(taken.toStatus().message).to.equal(`Service "t" is invalid: spec.ports[0].nodePort: Invalid value: ${nps[2]}: provided port is already allocated`);
    const lb = await create(svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    expect(lb.spec.healthCheckNodePort).to.be.a('number');
    expect(await keys('nodePorts')).to.have.length(4);
    const full = await failure(alloc.allocateCreate(svc('f', { type: 'NodePort' }), false));
    expect(full.toStatus()).to.deep.include({ code: 500, message: 'Internal error occurred: failed to allocate a nodePort: range is full' });
    // Nothing of the failed creates stayed claimed: their IPs went back.
    expect(await keys('ips')).to.have.length(2);
    const noPorts = await create(svc('lb2', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }));
    expect((noPorts.spec.ports as Array<{ nodePort?: number }>)[0].nodePort).to.equal(undefined);
  });

  it('a reverted create and a dry run leave nothing claimed', async () => {
    setup('10.0.0.0/24');
    const op = await alloc.allocateCreate(svc('x', { type: 'NodePort' }), false);
    expect(await keys('ips')).to.have.length(1);
    await op.revert();
    const dry = svc('y', { type: 'NodePort' });
    await (await alloc.allocateCreate(dry, true)).commit();
    expect(dry.spec.clusterIP).to.match(/^10\.0\.0\./);
    expect(await keys('ips')).to.deep.equal([]);
    expect(await keys('nodePorts')).to.deep.equal([]);
  });

  it('updates: type changes give back what the new type does not hold, only on commit', async () => {
    setup('10.0.0.0/24');
    const old = await create(svc('u', { type: 'NodePort' }));
    const toClusterIP = structuredClone(old);
    toClusterIP.spec.type = 'ClusterIP';
    let op = await alloc.allocateUpdate(toClusterIP, old, false);
    await op.revert();
    expect(await keys('nodePorts')).to.have.length(1);
    op = await alloc.allocateUpdate(toClusterIP, old, false);
    await op.commit();
    expect(await keys('nodePorts')).to.deep.equal([]);
    expect(await keys('ips')).to.deep.equal([old.spec.clusterIP]);
    const toExternal = structuredClone(toClusterIP);
    Object.assign(toExternal.spec!, { type: 'ExternalName', externalName: 'x.example.com' });
    await (await alloc.allocateUpdate(toExternal, toClusterIP, false)).commit();
    expect(await keys('ips')).to.deep.equal([]);
  });

  it('replicas allocating at once never hand out one IP twice', async () => {
    setup('10.0.0.0/27');
    const replicas = [alloc, new ServiceAllocator(buildServiceAllocators({ client, etcdPrefix: prefix, serviceClusterIPRange: '10.0.0.0/27' }))];
    const objs = Array.from({ length: 30 }, (_, i) => svc(`c${i}`));
    await Promise.all(objs.map(async (o, i) => (await replicas[i % 2].allocateCreate(o, false)).commit()));
    const ips = objs.map((o) => o.spec.clusterIP);
    expect(new Set(ips).size).to.equal(30);
    expect(await keys('ips')).to.have.length(30);
  });

  it('repair claims what services hold, reports duplicates and releases leaks after three runs', async () => {
    setup('10.0.0.0/24');
    // Its address asked for: a random one was 10.0.0.200 (the stray's) or 10.0.0.99 once in 127 runs.
    const a = await create(svc('a', { clusterIP: '10.0.0.10' }));
    const stray = svc('stray', { clusterIP: '10.0.0.200' });
    const dup = structuredClone(a);
    dup.metadata.name = 'dup';
    // A claim no service holds (a create that died) and a service no claim covers (restored data).
    await allocators.ips[0].allocator.allocate(allocators.ips[0].range.indexOf('10.0.0.99')!, 'ns/gone');
    const items = [a, stray, dup];
    const list = async () => ({ items, resourceVersion: (await client.get('x').exec()).header.revision });
    const repair = new AllocationRepair(list, allocators, log);
    const first = await repair.runOnce();
    expect(first).to.deep.equal({ claimed: ['10.0.0.200'], released: [], duplicates: [a.spec.clusterIP], outOfRange: [] });
    expect((await repair.runOnce()).released).to.deep.equal([]);
    expect((await repair.runOnce()).released).to.deep.equal(['10.0.0.99']);
    expect(await keys('ips')).to.deep.equal([a.spec.clusterIP as string, '10.0.0.200'].sort());
  });
});
