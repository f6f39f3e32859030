// The same kubectl scenarios with kubectl v1.28 (JSON) and v1.34 (protobuf requests and
// responses for built-in kinds) through two replicas with RBAC: every create generator
// for the served kinds, create token, auth can-i (with and without --list), auth
// whoami, apply, get -w across replicas, scale, and delete.
import { expect } from 'chai';
import { kubectl, kubectlStream, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl v1.28 and v1.34 through two replicas', function () {
  this.timeout(300_000);
  let cluster: Cluster;

  before(async () => {
    cluster = await startReplicas(2, {
      etcd: 'mutual-tls',
      authorizationMode: 'RBAC',
      clientUsers: [{ name: 'dave', groups: [] }],
      extraArgs: ['--controllers=*,-root-ca-cert-publisher'],
    });
  });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    describe(`kubectl ${version}`, () => {
      const ns = `kv-${version.replace('.', '')}-${Date.now().toString(36)}`;
      const k = (args: string[], replica = 0, stdin?: string, user = 'admin') =>
        kubectl(args, { kubeconfig: cluster.kubeconfigFor(replica, user), stdin, version });
      const ok = async (args: string[], replica = 0, stdin?: string, user = 'admin') => {
        const r = await k(args, replica, stdin, user);
        expect(r.code, `kubectl ${version} ${args.join(' ')}\n${r.stderr}`).to.equal(0);
        return r.stdout;
      };

      it('reports its version and the server as v1.28', async () => {
        const out = JSON.parse(await ok(['version', '-o', 'json']));
        expect(out.clientVersion.gitVersion).to.match(new RegExp(`^v${version.replace('.', '\\.')}\\.`));
        expect(out.serverVersion.gitVersion).to.match(/^v1\.28\./);
      });

      it('creates every served kind with its generator', async () => {
        await ok(['create', 'namespace', ns]);
        const n = ['-n', ns];
        await ok(['create', 'configmap', 'cm', '--from-literal=a=1', ...n]);
        await ok(['create', 'secret', 'generic', 'sec', '--from-literal=p=s3cret', ...n]);
        await ok(['create', 'secret', 'docker-registry', 'reg', '--docker-server=r.example', '--docker-username=u', '--docker-password=p', ...n]);
        await ok(['create', 'secret', 'tls', 'tls', `--cert=${cluster.pki.serving.certFile}`, `--key=${cluster.pki.serving.keyFile}`, ...n]);
        await ok(['create', 'serviceaccount', 'builder', ...n]);
        await ok(['create', 'role', 'reader', '--verb=get,list', '--resource=configmaps', ...n]);
        await ok(['create', 'rolebinding', 'reader-dave', '--role=reader', '--user=dave', ...n]);
        await ok(['create', 'clusterrole', `${ns}-viewer`, '--verb=get', '--resource=namespaces']);
        await ok(['create', 'clusterrolebinding', `${ns}-viewer-dave`, `--clusterrole=${ns}-viewer`, '--user=dave']);
        await ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2', ...n]);
        await ok(['create', 'job', 'once', '--image=busybox', ...n, '--', 'true']);
        await ok(['create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 3 * * *', ...n, '--', 'true']);
        await ok(['create', 'poddisruptionbudget', 'web-pdb', '--selector=app=web', '--min-available=1', ...n]);
        await ok(['run', 'solo', '--image=nginx:1.25', '--restart=Never', ...n]);
        await ok(['create', 'ingress', 'site', '--rule=site.example/=web:80', ...n]);
        await ok(['create', 'service', 'clusterip', 'web', '--tcp=80:8080', ...n]);
        await ok(['create', 'service', 'externalname', 'ext', '--external-name=db.example.com', ...n]);
        await ok(['create', 'service', 'nodeport', 'np', '--tcp=81:8081', ...n]);
        await ok(['create', 'service', 'loadbalancer', 'lb', '--tcp=82:8082', ...n]);
        await ok(['create', 'quota', 'small', '--hard=pods=10,requests.cpu=2', ...n]);
        await ok(['create', 'priorityclass', `${ns}-high`, '--value=1000', '--description=test']);
        const names = await ok(['get', 'cm,secret,sa,role,rolebinding,deployment,job,cronjob,pdb,pod,ingress,quota,svc', '-n', ns, '-o', 'name']);
        for (const want of ['configmap/cm', 'secret/sec', 'secret/reg', 'secret/tls', 'serviceaccount/builder',
          'role.rbac.authorization.k8s.io/reader', 'rolebinding.rbac.authorization.k8s.io/reader-dave',
          'deployment.apps/web', 'job.batch/once', 'cronjob.batch/nightly', 'poddisruptionbudget.policy/web-pdb', 'pod/solo',
          'ingress.networking.k8s.io/site', 'resourcequota/small', 'service/web', 'service/ext', 'service/np', 'service/lb']) {
          expect(names.split('\n')).to.include(want);
        }
        const secret = JSON.parse(await ok(['get', 'secret', 'sec', ...n, '-o', 'json'], 1));
        expect(Buffer.from(secret.data.p, 'base64').toString()).to.equal('s3cret');
        const svc = JSON.parse(await ok(['get', 'service', 'web', ...n, '-o', 'json'], 1));
        expect(svc.spec).to.deep.include({ type: 'ClusterIP', sessionAffinity: 'None', selector: { app: 'web' } });
        expect(svc.spec.ports).to.deep.equal([{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }]);
        // Cluster IPs come from the harness's --service-cluster-ip-range=10.0.0.0/24, node ports from 30000-32767.
        expect(svc.spec.clusterIP).to.match(/^10\.0\.0\.\d+$/);
        expect(svc.spec.clusterIPs).to.deep.equal([svc.spec.clusterIP]);
        const allocated = new Set<string>([svc.spec.clusterIP]);
        for (const name of ['np', 'lb']) {
          const s = JSON.parse(await ok(['get', 'service', name, ...n, '-o', 'json'], 1));
          expect(s.spec.clusterIP).to.match(/^10\.0\.0\.\d+$/);
          expect(allocated.has(s.spec.clusterIP), `${name} got a cluster IP already handed out`).to.equal(false);
          allocated.add(s.spec.clusterIP);
          expect(s.spec.ports[0].nodePort).to.be.within(30000, 32767);
        }
        const ext = JSON.parse(await ok(['get', 'service', 'ext', ...n, '-o', 'json'], 1));
        expect(ext.spec.clusterIP).to.equal(undefined);
        const row = (await ok(['get', 'service', 'np', ...n, '--no-headers'])).trim().split(/\s+/);
        expect(row[2]).to.match(/^10\.0\.0\.\d+$/);
        expect(row[4]).to.match(/^81:3\d{4}\/TCP$/);
        const pc = JSON.parse(await ok(['get', 'priorityclass', `${ns}-high`, '-o', 'json'], 1));
        expect(pc).to.deep.include({ value: 1000, description: 'test', preemptionPolicy: 'PreemptLowerPriority' });
        const deploy = JSON.parse(await ok(['get', 'deployment', 'web', ...n, '-o', 'json'], 1));
        expect(deploy.spec).to.deep.include({ replicas: 2, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
        expect(deploy.spec.template.spec.containers[0]).to.deep.include({ image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' });
        expect((await ok(['scale', 'deployment', 'web', '--replicas=3', ...n], 1)).trim()).to.equal('deployment.apps/web scaled');
        expect(JSON.parse(await ok(['get', 'deployment', 'web', ...n, '-o', 'json'])).spec.replicas).to.equal(3);
        const crb = JSON.parse(await ok(['get', 'clusterrolebinding', `${ns}-viewer-dave`, '-o', 'json'], 1));
        expect(crb.subjects).to.deep.equal([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dave' }]);
      });

      it(version === '1.34' ? 'sends and reads protobuf for built-in kinds' : 'sends and reads JSON', async () => {
        const r = await k(['create', 'configmap', 'wire', '--from-literal=a=1', '-n', ns, '-v=8']);
        expect(r.code, r.stderr).to.equal(0);
        // -v=8 prints the request's headers, then the response's (v1.28 as lines, v1.34 as structured log).
        const [sent, got] = [...r.stderr.slice(r.stderr.indexOf('POST')).matchAll(/Content-Type: ([^\s;]+)/g)].map((m) => m[1]);
        const want = version === '1.34' ? 'application/vnd.kubernetes.protobuf' : 'application/json';
        expect(sent).to.equal(want);
        expect(got).to.equal(want);
      });

      it('create token gives a token that authenticates on the other replica', async () => {
        const token = (await ok(['create', 'token', 'builder', '-n', ns, '--duration=10m'])).trim();
        expect(token.split('.')).to.have.length(3);
        // A kubeconfig without a client certificate, so the token is what authenticates.
        const who = await ok(['auth', 'whoami', '-o', 'json', `--token=${token}`], 1, undefined, 'anonymous');
        expect(JSON.parse(who).status.userInfo.username).to.equal(`system:serviceaccount:${ns}:builder`);
      });

      it('auth can-i with and without --list, and auth whoami', async () => {
        expect((await ok(['auth', 'can-i', 'list', 'configmaps', '-n', ns], 0, undefined, 'dave')).trim()).to.equal('yes');
        const no = await k(['auth', 'can-i', 'delete', 'configmaps', '-n', ns], 0, undefined, 'dave');
        expect(no.code).to.equal(1);
        expect(no.stdout.trim()).to.equal('no');
        const list = await ok(['auth', 'can-i', '--list', '-n', ns], 1, undefined, 'dave');
        expect(list).to.match(/^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);
        expect(list).to.match(/^namespaces\s+\[\]\s+\[\]\s+\[get\]$/m);
        const whoami = await ok(['auth', 'whoami'], 1, undefined, 'dave');
        expect(whoami).to.match(/Username\s+dave/);
      });

      it('apply creates, then updates, a multi-document manifest', async () => {
        const manifest = (v: string) => [
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: ${ns}\ndata:\n  v: "${v}"\n`,
          `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: applied\n  namespace: ${ns}\nrules:\n- apiGroups: [""]\n  resources: ["secrets"]\n  verbs: ["${v === 'one' ? 'get' : 'list'}"]\n`,
        ].join('---\n');
        expect(await ok(['apply', '-f', '-'], 0, manifest('one'))).to.match(/configmap\/applied created/);
        expect(await ok(['apply', '-f', '-'], 1, manifest('two'))).to.match(/configmap\/applied configured/);
        const role = JSON.parse(await ok(['get', 'role', 'applied', '-n', ns, '-o', 'json']));
        expect(role.rules[0].verbs).to.deep.equal(['list']);
        expect(await ok(['apply', '--server-side', '-f', '-'], 0, manifest('three'))).to.match(/configmap\/applied serverside-applied/);
        expect(JSON.parse(await ok(['get', 'cm', 'applied', '-n', ns, '-o', 'json'], 1)).data.v).to.equal('three');
      });

      it('get -w on one replica shows changes made through the other', async () => {
        const w = kubectlStream(['get', 'cm', '-n', ns, '-w', '--output-watch-events', '--field-selector=metadata.name=watched'],
          { kubeconfig: cluster.kubeconfigFor(1), version });
        const waitFor = (re: RegExp) => w.waitFor(re);
        try {
          await new Promise((r) => setTimeout(r, 1500));
          await ok(['create', 'configmap', 'watched', '-n', ns, '--from-literal=v=one']);
          await waitFor(/^ADDED\s+watched\s+1\s/m);
          await ok(['patch', 'configmap', 'watched', '-n', ns, '-p', '{"data":{"w":"two"}}']);
          await waitFor(/^MODIFIED\s+watched\s+2\s/m);
          await ok(['delete', 'configmap', 'watched', '-n', ns]);
          await waitFor(/^DELETED\s+watched\s+2\s/m);
        } finally {
          w.stop();
        }
      });

      it('delete removes objects, and the namespace with its contents', async () => {
        expect(await ok(['delete', 'rolebinding', 'reader-dave', '-n', ns])).to.match(/rolebinding.rbac.authorization.k8s.io "reader-dave" deleted/);
        const gone = await k(['get', 'rolebinding', 'reader-dave', '-n', ns], 1);
        expect(gone.code).to.equal(1);
        expect(gone.stderr).to.match(/Error from server \(NotFound\): rolebindings.rbac.authorization.k8s.io "reader-dave" not found/);
        await ok(['delete', 'clusterrolebinding', `${ns}-viewer-dave`]);
        await ok(['delete', 'priorityclass', `${ns}-high`]);
        await ok(['delete', 'clusterrole', `${ns}-viewer`]);
        await ok(['delete', 'namespace', ns, '--wait=true', '--timeout=60s']);
        const nsGone = await k(['get', 'namespace', ns], 1);
        expect(nsGone.stderr).to.match(/NotFound/);
      });
    });
  }
});
