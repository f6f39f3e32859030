import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { dueForDeletion, parseCleanerDurations } from './cleaner/index.js';
import { certificateTTL } from './signer/authority.js';

const hour = 3600_000;

describe('certificate controllers: options and decisions', () => {
  it('lifetime: the smaller of expirationSeconds and the signing duration, at least 10 minutes', () => {
    expect(certificateTTL(24 * hour, undefined)).to.equal(24 * hour);
    expect(certificateTTL(24 * hour, 3600)).to.equal(hour);
    expect(certificateTTL(hour, 7200)).to.equal(hour);
    expect(certificateTTL(hour, 60)).to.equal(600_000);
  });

  it("the cleaner's rules: issued after approval, denied and failed, pending without conditions", () => {
    const t = parseCleanerDurations(undefined);
    expect(t).to.deep.equal({ approved: hour, denied: hour, pending: 24 * hour, poll: hour });
    const now = Date.parse('2026-01-02T00:00:00Z');
    const ago = (ms: number) => new Date(now - ms).toISOString();
    const csr = (conditions: unknown[], certificate?: string, created = ago(0)) =>
      ({ metadata: { name: 'x', creationTimestamp: created }, status: { conditions, ...(certificate ? { certificate } : {}) } }) as unknown as KubeObject;
    expect(dueForDeletion(csr([], undefined, ago(24 * hour + 1000)), t, now)).to.equal('pending');
    expect(dueForDeletion(csr([], undefined, ago(23 * hour)), t, now)).to.equal(undefined);
    expect(dueForDeletion(csr([{ type: 'Denied', lastUpdateTime: ago(hour + 1000) }]), t, now)).to.equal('denied');
    expect(dueForDeletion(csr([{ type: 'Failed', lastUpdateTime: ago(hour + 1000) }]), t, now)).to.equal('failed');
    expect(dueForDeletion(csr([{ type: 'Denied', lastUpdateTime: ago(hour - 1000) }]), t, now)).to.equal(undefined);
    // Approved but not issued: upstream keeps it (neither pending nor issued).
    expect(dueForDeletion(csr([{ type: 'Approved', lastUpdateTime: ago(2 * hour) }]), t, now)).to.equal(undefined);
    expect(dueForDeletion(csr([{ type: 'Approved', lastUpdateTime: ago(2 * hour) }], 'eA=='), t, now)).to.equal('issued');
    expect(parseCleanerDurations('denied=2s,poll=100ms')).to.include({ denied: 2000, poll: 100, approved: hour });
    expect(() => parseCleanerDurations('nope=1s')).to.throw('--csr-cleaner-durations: unknown entry "nope=1s"');
  });
});
