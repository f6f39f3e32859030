import { expect } from 'chai';
import { signerFiles } from '../controller/certificates/options.js';
import { parseOptions } from './options.js';

const flags = (v: Record<string, string>) => parseOptions(Object.entries(v).map(([k, x]) => `--${k}=${x}`)).clusterSigning;
const hour = 3600_000;

describe('--cluster-signing-* flags', () => {
  it("--cluster-signing-* files as upstream validates them", () => {
    const general = flags({ 'cluster-signing-cert-file': 'ca.crt', 'cluster-signing-key-file': 'ca.key' });
    expect(signerFiles(general, 'kubernetes.io/kubelet-serving')).to.deep.equal({ certFile: 'ca.crt', keyFile: 'ca.key' });
    expect(general.durationMs).to.equal(365 * 24 * hour);
    const own = flags({ 'cluster-signing-kubelet-serving-cert-file': 's.crt', 'cluster-signing-kubelet-serving-key-file': 's.key' });
    expect(signerFiles(own, 'kubernetes.io/kubelet-serving')).to.deep.equal({ certFile: 's.crt', keyFile: 's.key' });
    expect(signerFiles(own, 'kubernetes.io/kube-apiserver-client')).to.equal(undefined);
    expect(() => flags({ 'cluster-signing-cert-file': 'ca.crt', 'cluster-signing-key-file': 'ca.key', 'cluster-signing-kubelet-client-cert-file': 'k.crt', 'cluster-signing-kubelet-client-key-file': 'k.key' }))
      .to.throw('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
    expect(() => flags({ 'cluster-signing-key-file': 'ca.key' })).to.throw('cannot specify key without cert');
    expect(() => flags({ 'cluster-signing-legacy-unknown-cert-file': 'l.crt' })).to.throw('cannot specify cert without key');
  });
});
