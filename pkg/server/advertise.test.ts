// The `kubernetes` Service's flags and the address each replica publishes in its endpoints.
import { expect } from 'chai';
import { advertiseAddress } from './advertise.js';
import { parseOptions } from './options.js';

describe('kubernetes service flags', () => {
  it('flags: --endpoint-reconciler-type, --advertise-address and --apiserver-count with upstream\'s defaults and messages', () => {
    const o = parseOptions([]);
    expect(o).to.deep.include({ endpointReconcilerType: 'lease', apiserverCount: 1, endpointReconcilerLeaseTTLMs: 15_000, endpointReconcilerIntervalMs: 10_000 });
    expect(o.advertiseAddress).to.equal(undefined);
    expect(parseOptions(['--endpoint-reconciler-type=none', '--advertise-address=192.0.2.11'])).to.deep.include({ endpointReconcilerType: 'none', advertiseAddress: '192.0.2.11' });
    expect(() => parseOptions(['--endpoint-reconciler-type=bogus'])).to.throw('Reconciler not implemented: bogus');
    expect(() => parseOptions(['--advertise-address=1.2.3'])).to.throw('invalid argument "1.2.3" for "--advertise-address" flag: failed to parse IP: "1.2.3"');
    expect(() => parseOptions(['--apiserver-count=0'])).to.throw("--apiserver-count should be a positive number, but value '0' provided");
  });

  it('the advertise address: the flag as given, else a real bind address, else the host\'s address', () => {
    expect(advertiseAddress('127.0.0.1', '0.0.0.0')).to.equal('127.0.0.1');
    expect(advertiseAddress(undefined, '192.0.2.40')).to.equal('192.0.2.40');
    const chosen = advertiseAddress('0.0.0.0', '127.0.0.1');
    expect(chosen).to.be.a('string').and.not.equal('0.0.0.0');
  });
});
