import { expect } from 'chai';
import { bigIntToIP, ipToBigInt, parseCIDR } from '../../../../util/net/cidr.js';
import { IPRange, PortRange } from './ranges.js';
import { parseServiceClusterIPRange, parseServiceNodePortRange } from './config.js';

const ipRange = (cidr: string): IPRange => new IPRange(parseCIDR(cidr)!);
const labels = (r: IPRange): string[] => Array.from({ length: r.size }, (_, i) => r.label(i));

describe('service allocation ranges', () => {
  it('IPv4: neither the network nor the broadcast address is usable', () => {
    const r = ipRange('10.0.0.0/29');
    expect(labels(r)).to.deep.equal(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
    expect(r.indexOf('10.0.0.0')).to.equal(undefined);
    expect(r.indexOf('10.0.0.7')).to.equal(undefined);
    expect(r.indexOf('10.0.0.1')).to.equal(0);
    expect(r.indexOf('10.0.0.8')).to.equal(undefined);
    expect(r.indexOf('fd00::1')).to.equal(undefined);
    expect(r.toString()).to.equal('10.0.0.0/29');
  });

  it('IPv4 /24 and /16: sizes and the static band upstream reserves', () => {
    expect(ipRange('10.0.0.0/24')).to.include({ size: 254, offset: 16 });
    expect(ipRange('10.96.0.0/16')).to.include({ size: 65534, offset: 256 });
    expect(ipRange('10.0.0.0/28')).to.include({ size: 14, offset: 0 });
    expect(ipRange('10.96.0.0/16').label(65533)).to.equal('10.96.255.254');
  });

  it('IPv6: the network address is skipped, the last one is not, big ranges are capped at 2^16', () => {
    const r = ipRange('fd00:10:96::/125');
    expect(labels(r)).to.deep.equal(['fd00:10:96::1', 'fd00:10:96::2', 'fd00:10:96::3', 'fd00:10:96::4', 'fd00:10:96::5', 'fd00:10:96::6', 'fd00:10:96::7']);
    expect(r.indexOf('fd00:10:96::7')).to.equal(6);
    expect(r.indexOf('FD00:10:96:0::3')).to.equal(2);
    expect(ipRange('fd00::/108')).to.include({ size: 65535, offset: 256 });
  });

  it('prints IPv6 as Go does (longest zero run compressed)', () => {
    const round = (ip: string) => bigIntToIP(ipToBigInt(ip)!, 'IPv6');
    expect(round('2001:0db8:0000:0000:0001:0000:0000:0001')).to.equal('2001:db8::1:0:0:1');
    expect(round('::')).to.equal('::');
    expect(round('fd00:0:0:0:0:0:0:0')).to.equal('fd00::');
    expect(round('::ffff:10.0.0.1')).to.equal('::ffff:a00:1');
    expect(parseCIDR('10.0.0.7/24')!.network).to.equal(ipToBigInt('10.0.0.0'));
  });

  it('node ports: base to base+size-1', () => {
    const r = new PortRange(30000, 2768);
    expect(r).to.include({ size: 2768, offset: 86 });
    expect(r.toString()).to.equal('30000-32767');
    expect(r.indexOf(30000)).to.equal(0);
    expect(r.indexOf(32767)).to.equal(2767);
    expect(r.indexOf(32768)).to.equal(undefined);
    expect(r.indexOf(80)).to.equal(undefined);
  });
});

describe('service range flags', () => {
  it('default to upstream\'s 10.0.0.0/24 and 30000-32767', () => {
    expect(parseServiceClusterIPRange(undefined).map((c) => [c.family, c.prefixLength])).to.deep.equal([['IPv4', 24]]);
    expect(parseServiceNodePortRange(undefined).toString()).to.equal('30000-32767');
    expect(parseServiceNodePortRange('30000+100').toString()).to.equal('30000-30100');
  });

  it('accept dual-stack, refuse what upstream refuses with its messages', () => {
    expect(parseServiceClusterIPRange('10.96.0.0/16,fd00::/108').map((c) => c.family)).to.deep.equal(['IPv4', 'IPv6']);
    expect(() => parseServiceClusterIPRange('10.0.0.0/24,10.1.0.0/24'))
      .to.throw('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    expect(() => parseServiceClusterIPRange('10.0.0.0/8'))
      .to.throw('specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12');
    expect(() => parseServiceClusterIPRange('fd00::/64'))
      .to.throw('specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108');
    expect(() => parseServiceClusterIPRange('a,b')).to.throw('service-cluster-ip-range[0] is not a valid cidr');
    expect(() => parseServiceClusterIPRange('10.0.0.0/30')).to.throw('the service cluster IP range must be at least 8 IP addresses');
    expect(() => parseServiceClusterIPRange('10.0.0.0/24,fd00::/108,10.1.0.0/24')).to.throw('must not contain more than two entries');
    expect(() => parseServiceNodePortRange('32767-30000'))
      .to.throw('invalid argument "32767-30000" for "--service-node-port-range" flag: end port cannot be less than start port: 32767-30000');
    expect(() => parseServiceNodePortRange('a-b')).to.throw('unable to parse port range: a-b');
  });
});
