// The pure parts of the `kubernetes` Service controller: the service IP, the Endpoints
// each reconciler writes, and the EndpointSlice made from them (its flags: pkg/server/advertise.test.ts).
import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { endpointSliceFor, sliceUpToDate } from './endpointslice.js';
import { endpointPorts, reconcileLease, reconcileMasterCount } from './reconciler.js';
import { appearsWithin, firstServiceIP, kubernetesService } from './service.js';

const ports = endpointPorts(6443);
const ep = (ips: string[], port = 6443, labels: Record<string, string> = { 'endpointslice.kubernetes.io/skip-mirror': 'true' }): KubeObject => ({
  apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default', labels, resourceVersion: '5' },
  subsets: [{ addresses: ips.map((ip) => ({ ip })), ports: [{ name: 'https', port, protocol: 'TCP' }] }],
});
const ips = (e: KubeObject | undefined): string[] => ((e?.subsets as any[])?.[0]?.addresses ?? []).map((a: any) => a.ip);

describe('kubernetes service', () => {
  it('takes the first address of the primary service range (10.0.0.0/24 by default)', () => {
    expect(firstServiceIP(undefined)).to.equal('10.0.0.1');
    expect(firstServiceIP('10.96.0.0/12')).to.equal('10.96.0.1');
    expect(firstServiceIP('10.96.7.9/16')).to.equal('10.96.0.1');
    expect(firstServiceIP('fd00:10:96::/108,10.0.0.0/24')).to.equal('fd00:10:96::1');
    expect(() => firstServiceIP('nonsense')).to.throw('service IP range specified in --service-cluster-ip-range failed to parse: invalid CIDR address: nonsense');
  });

  it('is the object upstream creates', () => {
    expect(kubernetesService('10.0.0.1', 6443)).to.deep.equal({
      apiVersion: 'v1', kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }], clusterIP: '10.0.0.1',
        ipFamilyPolicy: 'SingleStack', sessionAffinity: 'None', type: 'ClusterIP' },
    });
  });

  it('waits a bounded time for a Service another replica is creating (its IP claimed, its object not yet written)', async () => {
    let asks = 0;
    const appearsOnThird = () => (++asks >= 3 ? Promise.resolve({}) : Promise.reject(new Error('404')));
    expect(await appearsWithin(appearsOnThird, 1000, () => false, 5)).to.equal(true);
    expect(asks).to.equal(3);
    asks = 0;
    const never = () => { asks++; return Promise.reject(new Error('404')); };
    const t0 = Date.now();
    expect(await appearsWithin(never, 50, () => false, 5)).to.equal(false);
    expect(Date.now() - t0).to.be.within(50, 1000);
    expect(asks).to.be.greaterThan(2);
    asks = 0;
    expect(await appearsWithin(never, 1000, () => true, 5), 'a stopping replica does not wait').to.equal(false);
    expect(asks).to.equal(1);
  });

  describe('lease reconciler', () => {
    it('creates the Endpoints with the leased addresses, sorted, and the skip-mirror label', () => {
      const e = reconcileLease(null, ['192.0.2.12', '192.0.2.11'], ports, false)!;
      expect(e.metadata).to.deep.equal({ name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } });
      expect(e.subsets).to.deep.equal([{ addresses: [{ ip: '192.0.2.11' }, { ip: '192.0.2.12' }], ports }]);
    });

    it('leaves correct Endpoints alone, whatever their order', () => {
      expect(reconcileLease(ep(['192.0.2.12', '192.0.2.11']), ['192.0.2.11', '192.0.2.12'], ports, false)).to.equal(undefined);
    });

    it('follows the leases: a lost lease drops its address, a new one adds it', () => {
      expect(ips(reconcileLease(ep(['192.0.2.11', '192.0.2.12']), ['192.0.2.11'], ports, false))).to.deep.equal(['192.0.2.11']);
      expect(ips(reconcileLease(ep(['192.0.2.11']), ['192.0.2.11', '192.0.2.13'], ports, false))).to.deep.equal(['192.0.2.11', '192.0.2.13']);
    });

    it('keeps another replica\'s port unless ports are reconciled; remakes a malformed object', () => {
      expect(reconcileLease(ep(['192.0.2.11'], 7443), ['192.0.2.11'], ports, false)).to.equal(undefined);
      expect((reconcileLease(ep(['192.0.2.11'], 7443), ['192.0.2.11'], ports, true)!.subsets as any[])[0].ports).to.deep.equal(ports);
      const twoSubsets = { ...ep(['192.0.2.11']), subsets: [{ addresses: [{ ip: '10.0.0.9' }] }, { addresses: [{ ip: '10.0.0.8' }] }] };
      expect(reconcileLease(twoSubsets, ['192.0.2.11'], ports, false)!.subsets).to.deep.equal([{ addresses: [{ ip: '192.0.2.11' }], ports }]);
    });

    it('adds the skip-mirror label to Endpoints without it', () => {
      const e = reconcileLease(ep(['192.0.2.11'], 6443, {}), ['192.0.2.11'], ports, false)!;
      expect(e.metadata.labels).to.deep.equal({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    });
  });

  describe('master-count reconciler', () => {
    it('adds our address and keeps at most --apiserver-count, dropping those after ours', () => {
      expect(ips(reconcileMasterCount(null, '192.0.2.11', ports, 1, false))).to.deep.equal(['192.0.2.11']);
      expect(reconcileMasterCount(ep(['192.0.2.11', '192.0.2.12']), '192.0.2.12', ports, 2, false)).to.equal(undefined);
      expect(ips(reconcileMasterCount(ep(['192.0.2.11', '192.0.2.13']), '192.0.2.12', ports, 2, false))).to.deep.equal(['192.0.2.11', '192.0.2.12']);
      expect(ips(reconcileMasterCount(ep(['192.0.2.11']), '192.0.2.12', ports, 1, false))).to.deep.equal(['192.0.2.12']);
    });
  });

  it('mirrors the Endpoints into an EndpointSlice as upstream\'s adapter', () => {
    const slice = endpointSliceFor(ep(['192.0.2.11', '192.0.2.12']));
    expect(slice).to.deep.equal({
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
      endpoints: [{ addresses: ['192.0.2.11'], conditions: { ready: true } }, { addresses: ['192.0.2.12'], conditions: { ready: true } }],
    });
    expect(endpointSliceFor(ep(['fd00::11'])).addressType).to.equal('IPv6');
    expect(sliceUpToDate({ ...slice, metadata: { ...slice.metadata, resourceVersion: '9' } }, slice)).to.equal(true);
    expect(sliceUpToDate(slice, endpointSliceFor(ep(['192.0.2.11'])))).to.equal(false);
  });
});
