// kubectl v1.28 (JSON) and v1.34 (protobuf) applying a manifest whose quantities are not
// in canonical form (`cpu: 1000m`, `memory: 1024Mi`): read back as upstream serves them
// (`1`, `1Gi`), and the same file applied again, client-side or server-side, writes nothing.
import { expect } from 'chai';
import { kubectl, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

interface Deployment {
  metadata: { resourceVersion: string };
  spec: { template: { spec: { containers: Array<{ resources: Record<string, Record<string, string>> }> } } };
}

describe('e2e: kubectl apply of non-canonical quantities', function () {
  this.timeout(120_000);
  let cluster: Cluster;

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    describe(`kubectl ${version}`, () => {
      const ns = `eq-${version.replace('.', '')}-${Date.now().toString(36)}`;
      const ok = async (args: string[], stdin?: string) => {
        const r = await kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin, version });
        expect(r.code, `kubectl ${version} ${args.join(' ')}\n${r.stderr}`).to.equal(0);
        return r.stdout;
      };
      const manifest = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
      - name: app
        image: nginx:1.25
        resources:
          limits:
            cpu: 1000m
            memory: 1024Mi
          requests:
            cpu: 0.5
            memory: 0.5Gi
`;
      const get = async (name: string) => JSON.parse(await ok(['get', 'deployment', name, '-n', ns, '-o', 'json'])) as Deployment;

      before(async () => { await ok(['create', 'namespace', ns]); });

      for (const mode of ['client-side', 'server-side']) {
        it(`reads back 1 and 1Gi, and a second ${mode} apply of the same file is a no-op`, async () => {
          const name = `web-${mode}`;
          const args = ['apply', ...(mode === 'server-side' ? ['--server-side'] : []), '-f', '-'];
          await ok(args, manifest(name));
          const first = await get(name);
          expect(first.spec.template.spec.containers[0].resources).to.deep.equal({
            limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '512Mi' },
          });
          const yaml = await ok(['get', 'deployment', name, '-n', ns, '-o', 'yaml']);
          // (The last-applied annotation of a client-side apply keeps the file's spelling.)
          expect(yaml).to.match(/^ +cpu: "1"$/m).and.to.match(/^ +memory: 1Gi$/m).and.not.to.match(/^ +cpu: 1000m$/m);
          await ok(args, manifest(name));
          expect((await get(name)).metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
        });
      }
    });
  }
});
