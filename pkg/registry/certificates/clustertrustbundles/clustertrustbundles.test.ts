import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { generateCA, issueCertificate } from '../../../util/cert/index.js';
import { buildScheme } from '../../index.js';
import { clustertrustbundles as ctbs } from './index.js';

const s = ctbs.strategy;
const msgs = (errs: { type: string }[]) => errs.map((e) => fieldErrorMessage(e as never));
const bundle = (name: string, trustBundle: string, signerName?: string): KubeObject =>
  ({ apiVersion: 'certificates.k8s.io/v1alpha1', kind: 'ClusterTrustBundle', metadata: { name },
    spec: { ...(signerName === undefined ? {} : { signerName }), trustBundle } }) as KubeObject;

describe('clustertrustbundles', () => {
  let ca1: string;
  let ca2: string;
  let leaf: string;
  before(async () => {
    const a = await generateCA('ca-one');
    ca1 = a.cert;
    ca2 = (await generateCA('ca-two')).cert;
    leaf = (await issueCertificate(a, { cn: 'leaf', usage: 'client' })).cert;
  });

  it('accepts CA certificates, with and without a signer', () => {
    expect(msgs(s.validate(bundle('plain', ca1 + ca2), {}))).to.deep.equal([]);
    expect(msgs(s.validate(bundle('example.com:foo:v1', ca1, 'example.com/foo'), {}))).to.deep.equal([]);
  });

  it("names: a signer-linked bundle carries the signer as prefix, an unlinked one has no ':'", () => {
    expect(msgs(s.validate(bundle('foo', ca1, 'example.com/foo'), {}))).to.deep.equal([
      'metadata.name: Invalid value: "foo": ClusterTrustBundle for signerName example.com/foo must be named with prefix example.com:foo:',
    ]);
    expect(msgs(s.validate(bundle('example.com:foo:UPPER', ca1, 'example.com/foo'), {}))).to.deep.equal([
      'metadata.name: Invalid value: "example.com:foo:UPPER": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ]);
    expect(msgs(s.validate(bundle('example.com:foo:v1', ca1), {}))).to.deep.equal([
      'metadata.name: Invalid value: "example.com:foo:v1": ClusterTrustBundle without signer name must not have ":" in its name',
    ]);
  });

  it('checks the signer name as CSRs do', () => {
    expect(msgs(s.validate(bundle('x', ca1, 'nodomain'), {}))).to.deep.equal([
      'metadata.name: Invalid value: "x": ClusterTrustBundle for signerName nodomain must be named with prefix nodomain:',
      "spec.signerName: Invalid value: \"nodomain\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
    ]);
    // Up to 571 characters in all (a 324-character signer is fine), one more is not.
    const path = `${'a'.repeat(253)}.${'b'.repeat(63)}`;
    expect(msgs(s.validate(bundle(`ex.com:${path}:x`, ca1, `ex.com/${path}`), {}))).to.deep.equal([]);
    const long = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.com/${'a'.repeat(253)}.${'b'.repeat(253)}`;
    expect(msgs(s.validate(bundle('x', ca1, long), {}))).to.include('spec.signerName: Too long: must have at most 571 bytes');
  });

  it("trustBundle: CERTIFICATE blocks of CA certificates only, in upstream's words", () => {
    const key = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    const headers = ca1.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
    const junk = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(msgs(s.validate(bundle('b', ca1 + key + headers + junk + leaf), {}))).to.deep.equal([
      'spec.trustBundle: Invalid value: "<value omitted>": entry 1 has bad block type: PRIVATE KEY',
      'spec.trustBundle: Invalid value: "<value omitted>": entry 2 has PEM block headers',
      'spec.trustBundle: Invalid value: "<value omitted>": entry 3 does not parse as X.509',
      'spec.trustBundle: Invalid value: "<value omitted>": entry 4 does not have the CA bit set',
    ]);
    expect(msgs(s.validate(bundle('b', 'not pem at all'), {}))).to.deep.equal([
      'spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided',
    ]);
    expect(msgs(s.validate(bundle('b', ca1 + ca2 + ca1 + ca1), {}))).to.deep.equal([
      'spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 2 3])',
    ]);
    expect(msgs(s.validate(bundle('b', ca1 + ' '.repeat(1024 * 1024)), {}))).to.deep.equal([
      'spec.trustBundle: Too long: must have at most 1048576 bytes',
    ]);
  });

  it('update: the signer is immutable, and an unchanged bundle is not parsed again', () => {
    const old = bundle('example.com:foo:v1', ca1, 'example.com/foo');
    old.metadata.resourceVersion = '5';
    const moved = structuredClone(old);
    (moved.spec as Record<string, unknown>).signerName = 'example.com/bar';
    expect(msgs(s.validateUpdate(moved, old, {}))).to.deep.equal([
      'metadata.name: Invalid value: "example.com:foo:v1": ClusterTrustBundle for signerName example.com/bar must be named with prefix example.com:bar:',
      'spec.signerName: Invalid value: "example.com/bar": field is immutable',
    ]);
    // A stored bundle that today's parser would refuse stays updatable while its bundle is untouched.
    const stored = bundle('legacy', leaf);
    stored.metadata.resourceVersion = '5';
    const relabelled = structuredClone(stored);
    relabelled.metadata.labels = { a: 'b' };
    expect(msgs(s.validateUpdate(relabelled, stored, {}))).to.deep.equal([]);
    (relabelled.spec as Record<string, unknown>).trustBundle = leaf + ca1;
    expect(msgs(s.validateUpdate(relabelled, stored, {}))).to.deep.equal([
      'spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set',
    ]);
    expect(s.allowUnconditionalUpdate).to.equal(false);
  });

  it('prints NAME and SIGNERNAME, and selects on spec.signerName', () => {
    expect(ctbs.table!.columns.map((c) => c.name)).to.deep.equal(['Name', 'SignerName']);
    expect(ctbs.table!.cells(bundle('plain', ca1))).to.deep.equal(['plain', '<none>']);
    expect(ctbs.table!.cells(bundle('example.com:foo:v1', ca1, 'example.com/foo'))).to.deep.equal(['example.com:foo:v1', 'example.com/foo']);
    expect(ctbs.selectableFields!(bundle('plain', ca1))).to.deep.equal({ 'spec.signerName': '' });
    expect(Object.keys(ctbs.fieldLabels!.labels)).to.deep.equal(['metadata.name', 'spec.signerName']);
    expect(ctbs.fieldLabels!.reject('spec.trustBundle')).to.equal('field label not supported: spec.trustBundle');
  });

  it('is served only with certificates.k8s.io/v1alpha1 in --runtime-config and the ClusterTrustBundle gate on', () => {
    const served = (runtimeConfig: Record<string, string>, gate: boolean) =>
      buildScheme({ runtimeConfig, featureEnabled: (g) => g === 'ClusterTrustBundle' && gate })
        .resource('certificates.k8s.io', 'v1alpha1', 'clustertrustbundles') !== undefined;
    expect(served({}, true)).to.equal(false);
    expect(served({ 'certificates.k8s.io/v1alpha1': 'true' }, false)).to.equal(false);
    expect(served({ 'certificates.k8s.io/v1alpha1': 'true' }, true)).to.equal(true);
    expect(served({ 'api/alpha': 'true' }, true)).to.equal(true);
    const scheme = buildScheme({ runtimeConfig: { 'certificates.k8s.io/v1alpha1': 'true' }, featureEnabled: () => true });
    expect(scheme.versionsOf('certificates.k8s.io')).to.deep.equal(['v1', 'v1alpha1']);
  });
});
