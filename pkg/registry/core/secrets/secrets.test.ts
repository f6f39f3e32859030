import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { secrets } from './index.js';
import { x509KeyPairError } from './tls.js';
import { generateCA } from '../../../util/cert/issue.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = secrets.strategy;
const b64 = (v: string): string => Buffer.from(v).toString('base64');
const secret = (over: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name: 's', namespace: 'ns', resourceVersion: '2', uid: 'u' }, type: 'Opaque', data: {}, ...over,
});

async function keyPair(alg: 'ECDSA' | 'RSA'): Promise<{ cert: string; key: string }> {
  return generateCA('test', { keyAlgorithm: alg });
}

describe('secrets', () => {
  it('declares upstream discovery data and selects on type', () => {
    expect(secrets).to.include({ kind: 'Secret', plural: 'secrets', singular: 'secret', namespaced: true });
    expect(secrets.shortNames).to.equal(undefined);
    expect(secrets.selectableFields!(secret({ type: 'kubernetes.io/tls' }))).to.deep.equal({ type: 'kubernetes.io/tls' });
  });

  it('defaults type to Opaque and folds stringData into data', () => {
    const obj: KubeObject = { metadata: { name: 's' }, data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new' } };
    s.applyDefaults(obj);
    expect(obj).to.deep.equal({ metadata: { name: 's' }, type: 'Opaque', data: { a: b64('new'), b: b64('keep') } });
  });

  const typeCases: Array<[string, Partial<KubeObject>, string[]]> = [
    ['service account token needs its annotation', { type: 'kubernetes.io/service-account-token' },
      ['metadata.annotations[kubernetes.io/service-account.name]: Required value']],
    ['service account token with annotation', { type: 'kubernetes.io/service-account-token',
      metadata: { name: 's', namespace: 'ns', annotations: { 'kubernetes.io/service-account.name': 'default' } } }, []],
    ['dockercfg needs its key', { type: 'kubernetes.io/dockercfg' }, ['data[.dockercfg]: Required value']],
    ['dockerconfigjson must be a JSON object', { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":') } },
      ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input']],
    ['dockerconfigjson ok', { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } }, []],
    ['basic auth needs username or password', { type: 'kubernetes.io/basic-auth' },
      ['data[username]: Required value', 'data[password]: Required value']],
    ['basic auth with an empty password', { type: 'kubernetes.io/basic-auth', data: { password: '' } }, []],
    ['ssh auth needs a non-empty key', { type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } },
      ['data[ssh-privatekey]: Required value']],
    ['tls needs both keys', { type: 'kubernetes.io/tls', data: { 'tls.key': b64('k') } }, ['data[tls.crt]: Required value']],
    ['bootstrap tokens are not checked here', { type: 'bootstrap.kubernetes.io/token' }, []],
    ['bad data key', { data: { 'a b': b64('x') } }, [
      "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]],
    ['too much data', { data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') } }, ['data: Too long: must have at most 1048576 bytes']],
  ];
  for (const [name, over, want] of typeCases) {
    it(name, () => expect(render(s.validate(secret(over), {}))).to.deep.equal(want));
  }

  it('type is immutable and so is an immutable secret', () => {
    const old = secret({ immutable: true, data: { a: b64('1') } });
    expect(render(s.validateUpdate(secret({ type: 'kubernetes.io/basic-auth', data: { username: '' } }), old, {}))).to.deep.equal([
      'type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });

  it('an update without type keeps the stored one', () => {
    const obj = secret({ type: undefined });
    s.prepareForUpdate(obj, secret({ type: 'kubernetes.io/tls' }), {});
    expect(obj.type).to.equal('kubernetes.io/tls');
  });

  it('prints NAME TYPE DATA AGE', () => {
    expect(secrets.table!.columns.map((c) => c.name)).to.deep.equal(['Name', 'Type', 'Data', 'Age']);
    expect(secrets.table!.cells(secret({ data: { a: '', b: '' } }))).to.deep.equal(['s', 'Opaque', 2, '<unknown>']);
  });

  describe('TLS key pair warning', () => {
    it('is silent for a matching pair and names Go\'s errors otherwise', async () => {
      const a = await keyPair('ECDSA');
      const b = await keyPair('ECDSA');
      const r = await keyPair('RSA');
      expect(x509KeyPairError(Buffer.from(a.cert), Buffer.from(a.key))).to.equal(undefined);
      expect(x509KeyPairError(Buffer.from(a.cert), Buffer.from(b.key))).to.equal('tls: private key does not match public key');
      expect(x509KeyPairError(Buffer.from(a.cert), Buffer.from(r.key))).to.equal('tls: private key type does not match public key type');
      expect(x509KeyPairError(Buffer.from(''), Buffer.from(a.key))).to.equal('tls: failed to find any PEM data in certificate input');
      expect(x509KeyPairError(Buffer.from(a.key), Buffer.from(a.cert))).to.equal(
        'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched');
      expect(x509KeyPairError(Buffer.from(a.cert), Buffer.from(a.cert))).to.equal(
        'tls: found a certificate rather than a key in the PEM for the private key');
      const warn = s.warnings!(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64(a.cert), 'tls.key': b64(b.key) } }));
      expect(warn).to.deep.equal(['tls: private key does not match public key']);
      expect(s.warnings!(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64(a.cert), 'tls.key': b64(a.key) } }))).to.deep.equal([]);
    });
  });
});
