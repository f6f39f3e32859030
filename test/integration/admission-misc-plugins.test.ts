// The storage, ingress-class, namespace, owner-reference and image-policy admission plugins
// end to end: one replica with NamespaceAutoProvision, NamespaceExists,
// OwnerReferencesPermissionEnforcement and ImagePolicyWebhook enabled besides the default
// set (NamespaceLifecycle off, so NamespaceExists answers on its own), an
// AdmissionConfiguration whose relative paths lead to the image policy backend's
// kubeconfig, and that backend: HTTPS on 127.0.0.1, certificates from the test PKI.
import { expect } from 'chai';
import { createServer, type Server } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, request, startReplicas, type Cluster, type HttpResponse, readAuditLog } from '../harness/index.js';

interface Obj {
  metadata: { name: string; uid?: string; namespace?: string; finalizers?: string[]; annotations?: Record<string, string>; resourceVersion?: string; ownerReferences?: unknown[] };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}
interface Status { code: number; reason: string; message: string; details?: Record<string, unknown> }
interface Review { apiVersion: string; kind: string; spec: { containers?: Array<{ image: string }>; annotations?: Record<string, string>; namespace?: string } }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('admission plugins: default classes, storage, namespaces, owner references, image policy', function () {
  this.timeout(180_000);
  let dir: string;
  let cluster: Cluster;
  let backend: Server;
  const reviews: Review[] = [];
  const ns = `adm-misc-${Date.now().toString(36)}`;

  const call = <T = Obj>(method: string, path: string, body?: unknown, user?: string, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(user), method, body, headers });
  const ok = <T>(r: HttpResponse<T>, code: number): T => {
    expect(r.status, JSON.stringify(r.body)).to.equal(code);
    return r.body;
  };
  const forbidden = (r: HttpResponse<Status>, message: string): void => {
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body).to.include({ code: 403, reason: 'Forbidden', message });
  };
  /** Repeats a dry-run create until its answer passes `settled`: the replica's caches caught up. */
  const settle = async <T = Obj>(path: string, body: unknown, settled: (r: HttpResponse<T>) => boolean, user?: string): Promise<void> => {
    let last: HttpResponse<T> | undefined;
    for (let i = 0; i < 100; i++) {
      last = await call<T>('POST', `${path}${path.includes('?') ? '&' : '?'}dryRun=All`, body, user);
      if (settled(last)) return;
      await sleep(100);
    }
    throw new Error(`not settled: ${JSON.stringify(last?.body)}`);
  };
  const auditEvents = (): Array<{ verb: string; objectRef?: { resource?: string; name?: string; namespace?: string }; annotations?: Record<string, string>; stage: string }> =>
    readAuditLog(join(dir, 'audit.log'));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adm-misc-'));
    const pki = await createTestPki(join(dir, 'backend-pki'));
    backend = createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString()) as Review;
        reviews.push(review);
        const images = (review.spec.containers ?? []).map((c) => c.image);
        if (images.some((i) => i.startsWith('flaky/'))) {
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('backend broke');
          return;
        }
        const allowed = !images.some((i) => i.startsWith('bad/'));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({
          apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview',
          status: { allowed, reason: allowed ? undefined : 'bad registry', auditAnnotations: { checked: 'yes' } },
        }));
      });
    });
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    const port = (backend.address() as { port: number }).port;
    writeFileSync(join(dir, 'backend.kubeconfig'), [
      'apiVersion: v1', 'kind: Config', 'current-context: images',
      'clusters:', '- name: images', '  cluster:', `    server: https://127.0.0.1:${port}/review`, '    certificate-authority: backend-pki/ca.crt',
      'users:', '- name: apiserver', '  user: {}',
      'contexts:', '- name: images', '  context: {cluster: images, user: apiserver}',
    ].join('\n'));
    writeFileSync(join(dir, 'imagepolicy.yaml'), 'imagePolicy:\n  kubeConfigFile: backend.kubeconfig\n  allowTTL: 50\n  denyTTL: 50\n  retryBackoff: 10\n  defaultAllow: true\n');
    writeFileSync(join(dir, 'admission.yaml'), 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ImagePolicyWebhook\n  path: imagepolicy.yaml\n');
    writeFileSync(join(dir, 'audit-policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n  resources: [{group: "", resources: ["pods"]}]\n- level: None\n');
    cluster = await startReplicas(1, {
      authorizationMode: 'RBAC',
      tokens: [{ token: 'bob-token', name: 'bob', groups: ['devs'] }],
      extraArgs: [
        '--enable-admission-plugins=NamespaceAutoProvision,NamespaceExists,OwnerReferencesPermissionEnforcement,ImagePolicyWebhook',
        '--disable-admission-plugins=NamespaceLifecycle',
        `--admission-control-config-file=${join(dir, 'admission.yaml')}`,
        '--runtime-config=imagepolicy.k8s.io/v1alpha1=true',
        `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`,
      ],
    });
    ok(await call('POST', '/api/v1/namespaces', { metadata: { name: ns } }), 201);
  });
  after(async () => {
    await cluster?.stop();
    await new Promise<void>((r) => (backend ? backend.close(() => r()) : r()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('NamespaceAutoProvision and NamespaceExists', () => {
    it('a create in a missing namespace creates the namespace first', async () => {
      const auto = `${ns}-auto`;
      expect((await call('GET', `/api/v1/namespaces/${auto}`)).status).to.equal(404);
      ok(await call('POST', `/api/v1/namespaces/${auto}/configmaps`, { metadata: { name: 'c' } }), 201);
      const created = ok(await call('GET', `/api/v1/namespaces/${auto}`), 200);
      expect(created.status).to.deep.include({ phase: 'Active' });
    });

    it('a dry-run create is not provisioned, and NamespaceExists answers 404 for the namespace', async () => {
      const ghost = `${ns}-ghost`;
      const r = await call<Status>('POST', `/api/v1/namespaces/${ghost}/configmaps?dryRun=All`, { metadata: { name: 'c' } });
      expect(r.status, JSON.stringify(r.body)).to.equal(404);
      expect(r.body).to.include({ reason: 'NotFound', message: `namespaces "${ghost}" not found` });
      expect(r.body.details).to.include({ name: ghost, kind: 'namespaces' });
      expect((await call('GET', `/api/v1/namespaces/${ghost}`)).status).to.equal(404);
    });
  });

  describe('DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize', () => {
    const claim = (name: string, extra: Record<string, unknown> = {}) => ({
      metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
    });
    const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;

    before(async () => {
      ok(await call('POST', '/apis/storage.k8s.io/v1/storageclasses', {
        metadata: { name: `${ns}-grow`, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/p', allowVolumeExpansion: true,
      }), 201);
      ok(await call('POST', '/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: `${ns}-fixed` }, provisioner: 'example.com/p' }), 201);
      await settle(claims, claim('probe'), (r) => r.body.spec?.storageClassName === `${ns}-grow`);
    });

    it('a claim without a class gets the default class and the pvc-protection finalizer', async () => {
      const c = ok(await call('POST', claims, claim('plain')), 201);
      expect(c.spec?.storageClassName).to.equal(`${ns}-grow`);
      expect(c.metadata.finalizers).to.deep.equal(['kubernetes.io/pvc-protection']);
    });

    it('a claim asking for no class ("") or for a class keeps it', async () => {
      expect(ok(await call('POST', claims, claim('none', { storageClassName: '' })), 201).spec?.storageClassName).to.equal('');
      expect(ok(await call('POST', claims, claim('fixed', { storageClassName: `${ns}-fixed` })), 201).spec?.storageClassName).to.equal(`${ns}-fixed`);
    });

    it('a new volume gets the pv-protection finalizer', async () => {
      const pv = ok(await call('POST', '/api/v1/persistentvolumes', {
        metadata: { name: `${ns}-pv` }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } },
      }), 201);
      expect(pv.metadata.finalizers).to.deep.equal(['kubernetes.io/pv-protection']);
    });

    it('growing a bound claim needs a class that allows expansion', async () => {
      const merge = { 'Content-Type': 'application/merge-patch+json' };
      for (const name of ['plain', 'fixed']) ok(await call('PATCH', `${claims}/${name}/status`, { status: { phase: 'Bound' } }, undefined, merge), 200);
      const grow = { spec: { resources: { requests: { storage: '2Gi' } } } };
      forbidden(await call<Status>('PATCH', `${claims}/fixed`, grow, undefined, merge),
        'persistentvolumeclaims "fixed" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      const grown = ok(await call('PATCH', `${claims}/plain`, grow, undefined, merge), 200);
      expect(grown.spec?.resources).to.deep.equal({ requests: { storage: '2Gi' } });
      ok(await call('PATCH', `${claims}/fixed`, { spec: { resources: { requests: { storage: '1Gi' } } } }, undefined, merge), 200);
    });
  });

  describe('pvc-protection and pv-protection controllers', () => {
    const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    const gone = async (path: string): Promise<boolean> => {
      for (let i = 0; i < 50; i++) {
        if ((await call('GET', path)).status === 404) return true;
        await sleep(100);
      }
      return false;
    };

    it('a claim no pod uses, and a volume not bound, go away once deleted', async () => {
      ok(await call('DELETE', `${claims}/none`), 200);
      expect(await gone(`${claims}/none`)).to.equal(true);
      ok(await call('DELETE', `/api/v1/persistentvolumes/${ns}-pv`), 200);
      expect(await gone(`/api/v1/persistentvolumes/${ns}-pv`)).to.equal(true);
    });

    it('a claim a scheduled pod mounts stays until the pod is gone', async () => {
      ok(await call('POST', `/api/v1/namespaces/${ns}/pods`, {
        metadata: { name: 'mounter' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx:mounter' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'fixed' } }] },
      }), 201);
      await sleep(300);
      ok(await call('DELETE', `${claims}/fixed`), 200);
      await sleep(1000);
      const held = ok(await call('GET', `${claims}/fixed`), 200);
      expect(held.metadata.finalizers).to.deep.equal(['kubernetes.io/pvc-protection']);
      ok(await call('DELETE', `/api/v1/namespaces/${ns}/pods/mounter?gracePeriodSeconds=0`), 200);
      expect(await gone(`${claims}/fixed`)).to.equal(true);
    });
  });

  describe('DefaultIngressClass', () => {
    const ingresses = `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`;
    const ingress = (name: string, extra: { annotations?: Record<string, string>; spec?: Record<string, unknown> } = {}) => ({
      metadata: { name, annotations: extra.annotations }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } }, ...extra.spec },
    });
    const ingressClass = (name: string) => ({ metadata: { name, annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } }, spec: { controller: 'example.com/ingress' } });

    it('a new Ingress without a class gets the default; one with a class or the legacy annotation keeps its own', async () => {
      ok(await call('POST', '/apis/networking.k8s.io/v1/ingressclasses', ingressClass(`${ns}-b`)), 201);
      await settle(ingresses, ingress('probe'), (r) => r.body.spec?.ingressClassName === `${ns}-b`);
      expect(ok(await call('POST', ingresses, ingress('plain')), 201).spec?.ingressClassName).to.equal(`${ns}-b`);
      expect(ok(await call('POST', ingresses, ingress('named', { spec: { ingressClassName: 'mine' } })), 201).spec?.ingressClassName).to.equal('mine');
      const legacy = ok(await call('POST', ingresses, ingress('legacy', { annotations: { 'kubernetes.io/ingress.class': 'old' } })), 201);
      expect(legacy.spec).to.not.have.property('ingressClassName');
    });

    it('ignores updates', async () => {
      const legacy = ok(await call('GET', `${ingresses}/legacy`), 200);
      const updated = ok(await call('PUT', `${ingresses}/legacy`, { ...legacy, metadata: { ...legacy.metadata, annotations: {} } }), 200);
      expect(updated.spec).to.not.have.property('ingressClassName');
    });

    it('with several defaults, creates still succeed and take the newest', async () => {
      await sleep(1100); // a later creationTimestamp (seconds) than the first default
      ok(await call('POST', '/apis/networking.k8s.io/v1/ingressclasses', ingressClass(`${ns}-c`)), 201);
      await settle(ingresses, ingress('probe'), (r) => r.status === 201 && r.body.spec?.ingressClassName !== `${ns}-b`);
      expect(ok(await call('POST', ingresses, ingress('second')), 201).spec?.ingressClassName).to.equal(`${ns}-c`);
    });
  });

  describe('OwnerReferencesPermissionEnforcement', () => {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    // A real owner, so the garbage collector leaves its dependents alone.
    let ownerUID = '';
    const owner = (block?: boolean) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: ownerUID, ...(block !== undefined ? { blockOwnerDeletion: block } : {}) });
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}`;

    before(async () => {
      ownerUID = ok(await call('POST', cms, { metadata: { name: 'owner' } }), 201).metadata.uid ?? '';
      ok(await call('POST', `${rbac}/roles`, { metadata: { name: 'cm-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update', 'patch'] }] }), 201);
      ok(await call('POST', `${rbac}/rolebindings`, { metadata: { name: 'bob-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' }, subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }] }), 201);
      await settle(cms, { metadata: { name: 'probe' } }, (r) => r.status === 201, 'bob');
    });

    it('a create may set a non-blocking ownerReference; changing it later needs delete', async () => {
      const cm = ok(await call('POST', cms, { metadata: { name: 'owned', ownerReferences: [owner()] } }, 'bob'), 201);
      expect(cm.metadata.ownerReferences).to.have.length(1);
      forbidden(await call<Status>('PUT', `${cms}/owned`, { ...cm, metadata: { ...cm.metadata, ownerReferences: [] } }, 'bob'),
        'configmaps "owned" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
      ok(await call('PUT', `${cms}/owned`, { ...cm, data: { k: 'v' } }, 'bob'), 200);
    });

    it('blockOwnerDeletion needs update on the owner\'s finalizers subresource', async () => {
      forbidden(await call<Status>('POST', cms, { metadata: { name: 'blocking', ownerReferences: [owner(true)] } }, 'bob'),
        'configmaps "blocking" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
      forbidden(await call<Status>('POST', cms, { metadata: { name: 'widget', ownerReferences: [{ ...owner(true), apiVersion: 'example.com/v1', kind: 'Widget' }] } }, 'bob'),
        'configmaps "widget" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"');
      ok(await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
        metadata: { name: 'gadgets.example.com' },
        spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
      }), 201);
      await settle<Status>(cms, { metadata: { name: 'gadget', ownerReferences: [{ ...owner(true), apiVersion: 'example.com/v1', kind: 'Gadget' }] } },
        (r) => !r.body.message.includes('RESTMapping'), 'bob');
      forbidden(await call<Status>('POST', cms, { metadata: { name: 'gadget', ownerReferences: [{ ...owner(true), apiVersion: 'example.com/v1', kind: 'Gadget' }] } }, 'bob'),
        'configmaps "gadget" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
      ok(await call('POST', `${rbac}/roles`, { metadata: { name: 'cm-finalizers' }, rules: [{ apiGroups: [''], resources: ['configmaps/finalizers'], verbs: ['update'] }] }), 201);
      ok(await call('POST', `${rbac}/rolebindings`, { metadata: { name: 'bob-cm-finalizers' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-finalizers' }, subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }] }), 201);
      await settle(cms, { metadata: { name: 'blocking', ownerReferences: [owner(true)] } }, (r) => r.status === 201, 'bob');
      ok(await call('POST', cms, { metadata: { name: 'blocking', ownerReferences: [owner(true)] } }, 'bob'), 201);
    });
  });

  describe('ImagePolicyWebhook', () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const pod = (name: string, image: string, annotations?: Record<string, string>) => ({ metadata: { name, annotations }, spec: { containers: [{ name: 'c', image }], initContainers: [{ name: 'i', image: 'busybox' }] } });
    const forImage = (image: string) => reviews.filter((r) => r.spec.containers?.[0]?.image === image);

    it('the server accepted --runtime-config=imagepolicy.k8s.io/v1alpha1=true', async () => {
      expect((await call('GET', '/readyz')).status).to.equal(200);
    });

    it('sends an ImageReview and admits what the backend allows, recording its audit annotations', async () => {
      const p = ok(await call('POST', pods, pod('good', 'nginx:1', { 'team.image-policy.k8s.io/ticket': 'T-1', 'example.com/other': 'x' })), 201);
      expect(p.metadata.annotations).to.not.have.property('alpha.image-policy.k8s.io/failed-open');
      expect(forImage('nginx:1')).to.deep.equal([{
        apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', metadata: { creationTimestamp: null },
        spec: { containers: [{ image: 'nginx:1' }, { image: 'busybox' }], annotations: { 'team.image-policy.k8s.io/ticket': 'T-1' }, namespace: ns },
        status: { allowed: false },
      }]);
      const ev = auditEvents().find((e) => e.verb === 'create' && e.objectRef?.name === 'good' && e.stage === 'ResponseComplete');
      expect(ev?.annotations).to.include({ 'imagepolicywebhook.image-policy.k8s.io/checked': 'yes' });
    });

    it('refuses what the backend denies (403 with its reason), and caches the denial', async () => {
      forbidden(await call<Status>('POST', pods, pod('bad1', 'bad/x')), 'pods "bad1" is forbidden: image policy webhook backend denied one or more images: bad registry');
      forbidden(await call<Status>('POST', pods, pod('bad2', 'bad/x')), 'pods "bad2" is forbidden: image policy webhook backend denied one or more images: bad registry');
      expect(forImage('bad/x')).to.have.length(1);
    });

    it('a failing backend is retried, then defaultAllow admits the pod marked failed-open', async () => {
      const p = ok(await call('POST', pods, pod('flaky', 'flaky/x')), 201);
      expect(forImage('flaky/x')).to.have.length(5);
      expect(p.metadata.annotations).to.include({ 'alpha.image-policy.k8s.io/failed-open': 'true' });
      const ev = auditEvents().find((e) => e.verb === 'create' && e.objectRef?.name === 'flaky' && e.stage === 'ResponseComplete');
      expect(ev?.annotations).to.include({ 'imagepolicywebhook.image-policy.k8s.io/failed-open': 'true' });
    });
  });
});
