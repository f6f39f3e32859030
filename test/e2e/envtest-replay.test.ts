// controller-runtime's envtest starting this server as it starts upstream's kube-apiserver
// (test/harness/envtest.ts replays its steps): the executable found in
// KUBEBUILDER_ASSETS, its `--help` probe, the files it writes in the cert dir, its exact
// flags, the anonymous /healthz poll, a user from its client-cert CA, then a CRD and a
// custom object through that user's kubeconfig, and its SIGTERM stop.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { startEnvtestAPIServer, type EnvtestAPIServer } from '../harness/envtest.js';
import { kubectl, startTestEtcd, type TestEtcd } from '../harness/index.js';
import { repoRoot } from '../harness/repo.js';
import { codeCacheFile, readBundleSource, trainedCacheFile } from '../../cmd/launch.js';
import { buildSnapshot, snapshotBlob } from '../../cmd/snapshot.js';
import { shippedNodeFlags } from '../../cmd/node-flags.js';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: guestbooks.webapp.envtest.io
spec:
  group: webapp.envtest.io
  scope: Namespaced
  names: { plural: guestbooks, singular: guestbook, kind: Guestbook }
  versions:
  - name: v1
    served: true
    storage: true
    subresources: { status: {} }
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: { type: integer, minimum: 1 }
`;

/** The serving certificate the server presents on 127.0.0.1. */
function servedCertificate(port: number, ca: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, ca, servername: undefined }, () => {
      resolve(s.getPeerCertificate().raw);
      s.end();
    });
    s.on('error', reject);
  });
}

describe('e2e: envtest starts kube-apiserver as controller-runtime does', function () {
  this.timeout(180_000);
  let etcd: TestEtcd;
  let assets: string;
  let server: EnvtestAPIServer | undefined;
  let stopped: number | null | undefined;
  let untrainedSnapshot = false;

  before(async () => {
    // envtest runs its own etcd per control plane, and finds kube-apiserver in KUBEBUILDER_ASSETS.
    etcd = await startTestEtcd();
    assets = mkdtempSync(join(tmpdir(), 'kubebuilder-assets-'));
    // The executable starts from its startup snapshot (cmd/snapshot.ts), which a start of
    // the bundle builds in the background from its trained cache; built here now, from
    // the build's cache when no start trained one yet (and then removed afterwards, so
    // that a later start builds the trained one).
    const trained = trainedCacheFile(readBundleSource());
    untrainedSnapshot = !(trained && existsSync(trained));
    expect(buildSnapshot(untrainedSnapshot ? codeCacheFile : trained!), 'the startup snapshot').to.equal(true);
    symlinkSync(join(repoRoot(), 'bin', 'kube-apiserver'), join(assets, 'kube-apiserver'));
    server = await startEnvtestAPIServer({ binary: join(assets, 'kube-apiserver'), etcdURL: etcd.endpoint });
  });

  after(async () => {
    if (server && stopped === undefined) await server.stop().catch(() => undefined);
    await etcd?.stop();
    if (assets) rmSync(assets, { recursive: true, force: true });
    if (untrainedSnapshot) for (const f of [snapshotBlob, `${snapshotBlob}.node`]) rmSync(f, { force: true });
  });

  it('probes --help (no --insecure-port: not passed) and starts with exactly envtest\'s flags', () => {
    const s = server!;
    const cmdline = readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').split('\0');
    // From the snapshot, built and started under the node flags the server ships with.
    expect(cmdline.slice(1, cmdline.indexOf('--snapshot-blob'))).to.deep.equal(shippedNodeFlags());
    expect(readFileSync(`${snapshotBlob}.node`, 'utf8').split('\n')[1]).to.equal(shippedNodeFlags().join(' '));
    expect(s.insecurePortFlag).to.equal(false);
    expect(s.args).to.deep.equal([
      '--allow-privileged=true',
      '--authorization-mode=RBAC',
      '--bind-address=127.0.0.1',
      `--cert-dir=${s.certDir}`,
      `--client-ca-file=${join(s.certDir, 'client-cert-auth-ca.crt')}`,
      '--disable-admission-plugins=ServiceAccount',
      `--etcd-servers=${etcd.endpoint}`,
      `--secure-port=${s.port}`,
      `--service-account-issuer=https://127.0.0.1:${s.port}/`,
      `--service-account-key-file=${join(s.certDir, 'sa-signer.crt')}`,
      `--service-account-signing-key-file=${join(s.certDir, 'sa-signer.key')}`,
      '--service-cluster-ip-range=10.0.0.0/24',
    ]);
    // An upstream flag this server does not act on is accepted with the logged warning.
    expect(s.output()).to.match(/^W\d{4} [^\n]*"flag accepted but not implemented; ignoring" flag="--allow-privileged"$/m);
  });

  it('serves the pair envtest wrote in --cert-dir and writes nothing there itself', async () => {
    const s = server!;
    expect(readdirSync(s.certDir).sort()).to.deep.equal(['apiserver.crt', 'apiserver.key', 'client-cert-auth-ca.crt', 'sa-signer.crt', 'sa-signer.key']);
    const served = await servedCertificate(s.port, s.servingCA);
    expect(served.equals(new X509Certificate(readFileSync(join(s.certDir, 'apiserver.crt'))).raw)).to.equal(true);
  });

  it('a CRD and a custom object through the kubeconfig of a user from envtest\'s client CA', async () => {
    const s = server!;
    const { kubeconfig } = await s.addUser({ name: 'default', groups: ['system:masters'] });
    // plane.go writes it into the cert dir as *.kubecfg.
    const path = join(s.certDir, 'default.kubecfg');
    writeFileSync(path, kubeconfig, { mode: 0o600 });
    const ok = async (args: string[], stdin?: string) => {
      const r = await kubectl(args, { kubeconfig: path, stdin });
      expect(r.code, `kubectl ${args.join(' ')}\n${r.stderr}`).to.equal(0);
      return r.stdout;
    };
    expect(await ok(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).to.equal('default');
    await ok(['apply', '-f', '-'], crd);
    await ok(['wait', '--for=condition=Established', '--timeout=30s', 'crd/guestbooks.webapp.envtest.io']);
    await ok(['create', '-f', '-'], 'apiVersion: webapp.envtest.io/v1\nkind: Guestbook\nmetadata: { name: sample, namespace: default }\nspec: { size: 3 }\n');
    const got = JSON.parse(await ok(['get', 'guestbooks', 'sample', '-n', 'default', '-o', 'json']));
    expect(got).to.nested.include({ kind: 'Guestbook', 'metadata.name': 'sample', 'spec.size': 3 });
    const bad = await kubectl(['create', '-f', '-'], { kubeconfig: path, stdin: 'apiVersion: webapp.envtest.io/v1\nkind: Guestbook\nmetadata: { name: bad, namespace: default }\nspec: { size: 0 }\n' });
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.include('spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1');
  });

  it('stops on SIGTERM within envtest\'s stop timeout, exit 0, no error-level log line', async () => {
    const s = server!;
    const output = () => s.output();
    stopped = await s.stop();
    expect(stopped).to.equal(0);
    // klog's text format (the default): E for error, F for fatal.
    const errors = output().split('\n').filter((l) => /^[EF]\d{4} /.test(l));
    expect(output()).to.match(/^I\d{4} /m);
    expect(errors).to.deep.equal([]);
  });
});
