import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../../../../test/harness/surface-objects.js';
import { certificatesigningrequests as csrs } from './index.js';

const gv = 'certificates.k8s.io_v1';
const admin = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const s = csrs.strategy;
const msgs = (errs: { type: string }[]) => errs.map((e) => fieldErrorMessage(e as never));

function create(body: KubeObject, user = admin): KubeObject {
  const obj = structuredClone(body);
  s.applyDefaults(obj);
  s.prepareForCreate(obj, { user });
  return obj;
}

describe('certificatesigningrequests', () => {
  const request = fixtureObject(gv, 'CertificateSigningRequest', 'fixtures-csr', 'request');

  it("create reproduces upstream's fixture: requester identity from the context, empty status", () => {
    const obj = create(request);
    expect(msgs(s.validate(obj, {}))).to.deep.equal([]);
    const want = withoutRunValues(fixtureObject(gv, 'CertificateSigningRequest', 'fixtures-csr', 'response'));
    expect(obj).to.deep.equal(want);
  });

  it('ignores identity and status in the body', () => {
    const body = structuredClone(request);
    Object.assign(body.spec as object, { username: 'mallory', uid: 'x', groups: ['g'], extra: { a: ['b'] } });
    body.status = { conditions: [{ type: 'Approved', status: 'True' }] };
    const obj = create(body, { name: 'bob', uid: 'u1', groups: ['system:authenticated'], extra: { scopes: ['s'] } } as never);
    expect(obj.spec).to.include({ username: 'bob', uid: 'u1' });
    expect((obj.spec as Record<string, unknown>).groups).to.deep.equal(['system:authenticated']);
    expect((obj.spec as Record<string, unknown>).extra).to.deep.equal({ scopes: ['s'] });
    expect(obj.status).to.deep.equal({});
  });

  it('refuses a request that is not a PEM CERTIFICATE REQUEST, the legacy signer, short durations, bad usages', () => {
    const obj = create({ metadata: { name: 'bad' }, spec: {
      request: Buffer.from('hi').toString('base64'), signerName: 'kubernetes.io/legacy-unknown', expirationSeconds: 599,
      usages: ['client auth', 'flying', 'client auth'] } } as unknown as KubeObject);
    expect(msgs(s.validate(obj, {}))).to.deep.equal([
      'spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST',
      'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    const noSigner = create({ ...request, spec: { ...(request.spec as object), signerName: undefined, usages: [] } } as KubeObject);
    expect(msgs(s.validate(noSigner, {}))).to.deep.equal(['spec.usages: Required value', 'spec.signerName: Required value']);
  });

  it('approval sets conditions only; both Approved and Denied, or a repeat, are refused', () => {
    const old = create(request);
    old.metadata.resourceVersion = '1';
    const upd = structuredClone(old);
    (upd.spec as Record<string, unknown>).signerName = 'example.com/other';
    upd.status = { certificate: Buffer.from('x').toString('base64'), conditions: [{ type: 'Approved', reason: 'R' }] };
    s.applyDefaults(upd);
    s.prepareForUpdate(upd, old, { subresource: 'approval' });
    expect((upd.spec as Record<string, unknown>).signerName).to.equal('kubernetes.io/kube-apiserver-client');
    const cond = (upd.status as { conditions: Record<string, unknown>[] }).conditions[0];
    expect(cond).to.include({ type: 'Approved', status: 'True', reason: 'R' });
    expect(cond.lastUpdateTime).to.be.a('string');
    expect((upd.status as Record<string, unknown>).certificate).to.equal(undefined);
    expect(msgs(s.validateUpdate(upd, old, { subresource: 'approval' }))).to.deep.equal([]);

    const both = structuredClone(old);
    both.status = { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }, { type: 'Approved', status: 'True' }] };
    expect(msgs(s.validateUpdate(both, old, { subresource: 'approval' }))).to.deep.equal([
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Duplicate value: "Approved"',
    ]);
    // Through the main resource, adding an approval is forbidden.
    const main = structuredClone(old);
    main.status = { conditions: [{ type: 'Approved', status: 'True' }] };
    expect(msgs(s.validateUpdate(main, old, {}))).to.deep.equal(['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);
  });

  it('status keeps approval conditions and accepts only PEM CERTIFICATE blocks', () => {
    const old = create(request);
    old.metadata.resourceVersion = '1';
    const upd = structuredClone(old);
    upd.status = { conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n').toString('base64') };
    s.prepareForUpdate(upd, old, { subresource: 'status' });
    expect((upd.status as Record<string, unknown>).conditions).to.equal(undefined);
    expect(msgs(s.validateUpdate(upd, old, { subresource: 'status' }))).to.deep.equal([
      'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"',
    ]);
    const none = structuredClone(old);
    none.status = { certificate: Buffer.from('junk').toString('base64') };
    expect(msgs(s.validateUpdate(none, old, { subresource: 'status' }))).to.deep.equal([
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
    const main = structuredClone(none);
    expect(msgs(s.validateUpdate(main, old, {}))).to.include('status.certificate: Forbidden: updates may not set certificate content');
  });

  it('prints upstream columns and the signerName field selector', () => {
    const table = fixtureTable(gv, 'CertificateSigningRequest');
    expect(csrs.table!.columns.map(({ name, type, format, priority }) => ({ name, type, format, priority }))).to.deep.equal(table.columnDefinitions);
    const resp = fixtureObject(gv, 'CertificateSigningRequest', 'fixtures-csr', 'response');
    const cells = csrs.table!.cells(resp);
    expect([cells[0], ...cells.slice(2)]).to.deep.equal([table.rows[0][0], ...table.rows[0].slice(2)]);
    expect(csrs.table!.cells({ ...resp, status: { conditions: [{ type: 'Approved' }, { type: 'Failed' }], certificate: 'eA==' } })[5]).to.equal('Approved,Failed,Issued');
    expect(csrs.selectableFields!(resp)).to.deep.equal({ 'spec.signerName': 'kubernetes.io/kube-apiserver-client' });
  });
});
