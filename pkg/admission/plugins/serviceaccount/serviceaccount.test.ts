import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { staticSource } from '../../source.js';
import type { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { ServiceAccount, tokenVolume } from './index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sa = (name: string, extra: Obj = {}, annotations?: Record<string, string>): KubeObject =>
  ({ metadata: { name, namespace: 'team', annotations }, ...extra });
const pod = (spec: Obj = {}, annotations?: Record<string, string>): KubeObject =>
  ({ metadata: { name: 'p', namespace: 'team', annotations }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });

function attrs(object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '',
    namespace: 'team', name: 'p', object, user: { name: 'u', groups: [] }, dryRun: false, ...over,
  };
}

async function rejection(p: Promise<void>): Promise<StatusError> {
  try { await p; } catch (e) { return e as StatusError; }
  throw new Error('admitted');
}

const plugin = (accounts: KubeObject[], live = accounts) =>
  new ServiceAccount(staticSource(accounts, live), { retryIntervalMs: 1, generateName: (b) => `${b}abcde` });

async function run(p: ServiceAccount, a: AdmissionAttributes): Promise<void> {
  await p.admit(a);
  await p.validate(a);
}

const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };

describe('ServiceAccount admission', () => {
  it('sets the default account and mounts the token volume in every container and init container', async () => {
    const p = pod({ initContainers: [{ name: 'i', image: 'i', volumeMounts: [{ name: 'x', mountPath: '/x' }] }] });
    await run(plugin([sa('default')]), attrs(p));
    const spec = p.spec as Obj;
    expect(spec.serviceAccountName).to.equal('default');
    expect(spec.serviceAccount).to.equal('default');
    expect(spec.containers[0].volumeMounts).to.deep.equal([mount]);
    expect(spec.initContainers[0].volumeMounts).to.deep.equal([{ name: 'x', mountPath: '/x' }, mount]);
    expect(spec.volumes).to.deep.equal([tokenVolume('kube-api-access-abcde')]);
    expect(spec.volumes[0].projected.sources[0]).to.deep.equal({ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } });
    expect(spec.imagePullSecrets).to.equal(undefined);
  });

  it('leaves containers that already mount the token path alone, and reuses an existing kube-api-access volume', async () => {
    const own = { name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    const p = pod({ containers: [{ name: 'c', image: 'i', volumeMounts: [own] }] });
    await run(plugin([sa('default')]), attrs(p));
    expect((p.spec as Obj).volumes).to.equal(undefined);
    const q = pod({ volumes: [{ name: 'kube-api-access-zzzzz', emptyDir: {} }] });
    await run(plugin([sa('default')]), attrs(q));
    expect((q.spec as Obj).volumes).to.deep.equal([{ name: 'kube-api-access-zzzzz', emptyDir: {} }]);
    expect((q.spec as Obj).containers[0].volumeMounts[0].name).to.equal('kube-api-access-zzzzz');
  });

  it('does not mount when the pod or else the account opts out', async () => {
    const off = pod({ serviceAccountName: 'quiet' });
    await run(plugin([sa('quiet', { automountServiceAccountToken: false })]), attrs(off));
    expect((off.spec as Obj).volumes).to.equal(undefined);
    const podWins = pod({ serviceAccountName: 'quiet', automountServiceAccountToken: true });
    await run(plugin([sa('quiet', { automountServiceAccountToken: false })]), attrs(podWins));
    expect((podWins.spec as Obj).volumes).to.have.length(1);
    const podOff = pod({ automountServiceAccountToken: false });
    await run(plugin([sa('default')]), attrs(podOff));
    expect((podOff.spec as Obj).volumes).to.equal(undefined);
  });

  it('copies the account\'s imagePullSecrets only to a pod that has none', async () => {
    const account = sa('default', { imagePullSecrets: [{ name: 'a' }, { name: 'b' }] });
    const p = pod();
    await run(plugin([account]), attrs(p));
    expect((p.spec as Obj).imagePullSecrets).to.deep.equal([{ name: 'a' }, { name: 'b' }]);
    const q = pod({ imagePullSecrets: [{ name: 'mine' }] });
    await run(plugin([account]), attrs(q));
    expect((q.spec as Obj).imagePullSecrets).to.deep.equal([{ name: 'mine' }]);
  });

  it('refuses a missing account, retrying the default account in storage first', async () => {
    const err = await rejection(run(plugin([]), attrs(pod({ serviceAccountName: 'ghost' }))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: error looking up service account team/ghost: serviceaccount "ghost" not found');
    const src = staticSource([], []);
    const p = new ServiceAccount(src, { retryIntervalMs: 1 });
    expect((await rejection(p.admit(attrs(pod()))).then((e) => e.message))).to.equal(
      'pods "p" is forbidden: error looking up service account team/default: serviceaccount "default" not found');
    expect(src.liveReads).to.equal(10);
    // The controller's account appears in storage before the cache hears of it.
    const late = pod();
    await run(plugin([], [sa('default')]), attrs(late));
    expect((late.spec as Obj).serviceAccountName).to.equal('default');
  });

  it('enforces mountable secrets when the account asks for it', async () => {
    const strict = sa('default', { secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'pull' }] }, { 'kubernetes.io/enforce-mountable-secrets': 'true' });
    const p = plugin([strict]);
    await run(p, attrs(pod({ volumes: [{ name: 'v', secret: { secretName: 'ok' } }] })));
    const cases: Array<[Obj, string]> = [
      [{ volumes: [{ name: 'v', secret: { secretName: 'no' } }] },
        'volume with secret.secretName="no" is not allowed because service account default does not reference that secret'],
      [{ initContainers: [{ name: 'i', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'no', key: 'k' } } }] }] },
        'init container i with envVar E referencing secret.secretName="no" is not allowed because service account default does not reference that secret'],
      [{ containers: [{ name: 'c', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'no', key: 'k' } } }] }] },
        'container c with envVar E referencing secret.secretName="no" is not allowed because service account default does not reference that secret'],
      [{ containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'no' } }] }] },
        'container c with envFrom referencing secret.secretName="no" is not allowed because service account default does not reference that secret'],
      [{ initContainers: [{ name: 'i', image: 'i', envFrom: [{ secretRef: { name: 'no' } }] }] },
        'init container i with envFrom referencing secret.secretName="no" is not allowed because service account default does not reference that secret'],
      [{ imagePullSecrets: [{ name: 'pull' }, { name: 'no' }] },
        'imagePullSecrets[1].name="no" is not allowed because service account default does not reference that imagePullSecret'],
    ];
    for (const [spec, why] of cases) {
      expect((await rejection(run(p, attrs(pod(spec))))).message).to.equal(`pods "p" is forbidden: ${why}`);
    }
    // Without the annotation (or with it false) nothing is checked.
    await run(plugin([sa('default', {}, { 'kubernetes.io/enforce-mountable-secrets': 'false' })]), attrs(pod(cases[0][0])));
  });

  it('checks ephemeral containers added through the subresource', async () => {
    const strict = sa('default', { secrets: [] }, { 'kubernetes.io/enforce-mountable-secrets': 'true' });
    const p = pod({ serviceAccountName: 'default', ephemeralContainers: [{ name: 'dbg', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] });
    const err = await rejection(plugin([strict]).validate(attrs(p, { operation: 'UPDATE', subresource: 'ephemeralcontainers', oldObject: pod() })));
    expect(err.message).to.equal('pods "p" is forbidden: ephemeral container dbg with envVar E referencing secret.secretName="s" is not allowed because service account default does not reference that secret');
  });

  it('leaves mirror pods unchanged and refuses their accounts, secrets and token projections', async () => {
    const mirror = { 'kubernetes.io/config.mirror': 'x' };
    const p = pod({}, mirror);
    await run(plugin([]), attrs(p));
    expect((p.spec as Obj).serviceAccountName).to.equal(undefined);
    expect((p.spec as Obj).volumes).to.equal(undefined);
    const cases: Array<[Obj, string]> = [
      [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
      [{ volumes: [{ name: 'v', secret: { secretName: 's' } }] }, 'a mirror pod may not reference secrets'],
      [{ containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 's' } }] }] }, 'a mirror pod may not reference secrets'],
      [{ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
    ];
    for (const [spec, why] of cases) {
      expect((await rejection(run(plugin([]), attrs(pod(spec, mirror))))).message).to.equal(`pods "p" is forbidden: ${why}`);
    }
  });

  it('does not touch updates, other subresources or other resources', async () => {
    const p = pod();
    await run(plugin([]), attrs(p, { operation: 'UPDATE', oldObject: pod() }));
    await run(plugin([]), attrs(p, { subresource: 'status' }));
    await run(plugin([]), attrs({ metadata: { name: 'cm' } }, { resource: 'configmaps', kind: 'ConfigMap' }));
    expect((p.spec as Obj).serviceAccountName).to.equal(undefined);
  });
});
