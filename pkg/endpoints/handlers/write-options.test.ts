import { expect } from 'chai';
import { StatusError } from '../../runtime/errors.js';
import { managerOrUserAgent, parseWriteOptions } from './write-options.js';

const q = (s: string) => new URLSearchParams(s);

function refusal(fn: () => unknown): StatusError {
  try { fn(); } catch (e) { return e as StatusError; }
  throw new Error('accepted');
}

describe('write options', () => {
  it('defaults fieldValidation to Warn and reads force as upstream converts bools', () => {
    expect(parseWriteOptions(q(''), 'CreateOptions')).to.deep.equal({ dryRun: false, fieldManager: '', fieldValidation: 'Warn', force: false });
    expect(parseWriteOptions(q('dryRun=All&fieldManager=m&fieldValidation=Strict'), 'UpdateOptions'))
      .to.deep.equal({ dryRun: true, fieldManager: 'm', fieldValidation: 'Strict', force: false });
    expect(parseWriteOptions(q('fieldManager=m&force=yes'), 'PatchOptions', { apply: true }).force).to.equal(true);
    expect(parseWriteOptions(q('fieldManager=m&force=False'), 'PatchOptions', { apply: true }).force).to.equal(false);
  });

  it('collects every problem into one 422', () => {
    const err = refusal(() => parseWriteOptions(q('force=true&dryRun=x'), 'PatchOptions', { apply: false }));
    expect(err.code).to.equal(422);
    expect(err.message).to.equal('PatchOptions.meta.k8s.io "" is invalid: [force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: []string{"x"}: supported values: "All"]');
    expect(refusal(() => parseWriteOptions(q(''), 'PatchOptions', { apply: true })).message)
      .to.equal('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });

  it('derives a manager from the User-Agent product name', () => {
    expect(managerOrUserAgent('explicit', 'kubectl/v1.28.0')).to.equal('explicit');
    expect(managerOrUserAgent('', 'kubectl/v1.28.0 (linux/amd64) kubernetes/abc')).to.equal('kubectl');
    expect(managerOrUserAgent('', 'x'.repeat(200))).to.have.length(128);
    expect(managerOrUserAgent('', undefined)).to.equal('unknown');
    // Beyond printable ASCII, character by character: kept when printable, dropped when not.
    expect(managerOrUserAgent('', 'k\u00fcbectl/1.0')).to.equal('k\u00fcbectl');
    expect(managerOrUserAgent('', 'a\tb/1')).to.equal('ab');
    expect(managerOrUserAgent('', 'x y/2')).to.equal('x y');
  });
});
