// Custom resources driven by the real kubectl (v1.28 and v1.34, which asks for protobuf
// and must fall back to JSON for custom kinds) through two replicas: apply a CRD with
// two versions converted by a webhook, create, get (printer columns), list, watch, patch, server-side apply and
// scale custom resources in both versions, `get all` through the category, and deleting
// the CRD deleting its objects.
import { expect } from 'chai';
import { kubectl, kubectlStream, kubectlVersions, request, startReplicas, until, type Cluster, type KubectlVersion } from '../harness/index.js';
import { startConversionWebhook, type ConversionWebhook } from '../harness/conversion-webhook.js';

function crdYAML(webhook: ConversionWebhook): string {
  const columns = `
    additionalPrinterColumns:
    - {name: Teeth, type: integer, jsonPath: .spec.teeth}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}`;
  const version = (name: string, storage: boolean, fields: string) => `
  - name: ${name}
    served: true
    storage: ${storage}
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}${columns}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              teeth: {type: integer}
              replicas: {type: integer}
              material: {type: string}${fields}
          status:
            type: object
            properties:
              replicas: {type: integer}`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: sprockets.e2e.example.com
spec:
  group: e2e.example.com
  scope: Namespaced
  names: {plural: sprockets, singular: sprocket, kind: Sprocket, shortNames: [spr], categories: [all]}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1, v1beta1]
      clientConfig: {url: "${webhook.url}", caBundle: "${webhook.caBundle}"}
  versions:${version('v1', true, `
              hostPort: {type: string}`)}${version('v2', false, `
              host: {type: string}
              port: {type: integer}`)}
`;
}

describe('e2e kubectl: custom resources', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let webhook: ConversionWebhook;
  const run = (version: KubectlVersion, args: string[], replica = 0, stdin?: string) =>
    kubectl(args, { kubeconfig: cluster.kubeconfigFor(replica), stdin, version });
  const ok = async (version: KubectlVersion, args: string[], replica = 0, stdin?: string) => {
    const r = await run(version, args, replica, stdin);
    expect(r.code, `kubectl ${version} ${args.join(' ')}\n${r.stderr}`).to.equal(0);
    return r.stdout;
  };

  before(async () => {
    cluster = await startReplicas(2, { etcd: 'mutual-tls' });
    webhook = await startConversionWebhook();
    await ok('1.28', ['apply', '-f', '-'], 0, crdYAML(webhook));
    await ok('1.28', ['wait', '--for', 'condition=established', '--timeout=10s', 'crd/sprockets.e2e.example.com'], 1);
    // Established is read from etcd; each replica serves the kind once its own watch brings
    // that write (at CI's load, perhaps after kubectl's first create): wait for both.
    for (const replica of [0, 1]) {
      await until(`sprockets served by replica ${replica}`, async () =>
        (await request(`${cluster.urls[replica]}/apis/e2e.example.com/v1/namespaces/default/sprockets`, cluster.credentialsFor())).status === 200, 10_000, 50);
    }
  });
  after(async () => {
    await cluster?.stop();
    await webhook?.server.stop();
  });

  for (const version of kubectlVersions) {
    const name = `s${version.replace('.', '')}`;
    it(`kubectl ${version}: creates, gets with printer columns, patches, applies and scales in both versions, converted by the webhook`, async () => {
      const manifest = `apiVersion: e2e.example.com/v1\nkind: Sprocket\nmetadata: {name: ${name}}\nspec: {teeth: 12, replicas: 1, hostPort: "gear:80"}\n`;
      expect(await ok(version, ['create', '-f', '-'], 0, manifest)).to.equal(`sprocket.e2e.example.com/${name} created\n`);
      const table = await ok(version, ['get', 'spr', name], 1);
      expect(table.split('\n')[0]!.split(/\s+/)).to.deep.equal(['NAME', 'TEETH', 'AGE']);
      expect(table.split('\n')[1]).to.match(new RegExp(`^${name}\\s+12\\s+\\d+s$`));
      expect(await ok(version, ['get', 'sprockets.v2.e2e.example.com', name, '-o', 'jsonpath={.apiVersion} {.spec.teeth} {.spec.host} {.spec.port}'], 1))
        .to.equal('e2e.example.com/v2 12 gear 80');
      expect(await ok(version, ['get', 'sprockets.v1.e2e.example.com', name, '-o', 'jsonpath={.apiVersion} {.spec.hostPort}'], 1))
        .to.equal('e2e.example.com/v1 gear:80');
      expect(await ok(version, ['patch', 'sprocket', name, '--type=merge', '-p', '{"spec":{"teeth":14}}'], 0))
        .to.equal(`sprocket.e2e.example.com/${name} patched\n`);
      const applied = `apiVersion: e2e.example.com/v2\nkind: Sprocket\nmetadata: {name: ${name}}\nspec: {material: brass, port: 8080}\n`;
      expect(await ok(version, ['apply', '--server-side', '-f', '-'], 1, applied)).to.equal(`sprocket.e2e.example.com/${name} serverside-applied\n`);
      expect(await ok(version, ['scale', 'sprocket', name, '--replicas=3'], 0)).to.equal(`sprocket.e2e.example.com/${name} scaled\n`);
      expect(await ok(version, ['get', 'sprockets.v1.e2e.example.com', name, '-o', 'jsonpath={.spec}'], 1))
        .to.equal('{"hostPort":"gear:8080","material":"brass","replicas":3,"teeth":14}');
      const smp = await run(version, ['patch', 'sprocket', name, '-p', '{"spec":{"teeth":1}}'], 0);
      expect(smp.code).to.not.equal(0);
      expect(smp.stderr).to.include('error: application/strategic-merge-patch+json is not supported by e2e.example.com/v2, Kind=Sprocket: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
    });
  }

  it('watches changes made through the other replica, and lists the kind under "all"', async () => {
    const w = kubectlStream(['get', 'sprockets', '--watch', '--output-watch-events', '-o', 'jsonpath={.type} {.object.metadata.name}{"\\n"}'],
      { kubeconfig: cluster.kubeconfigFor(1) });
    try {
      await w.waitFor(/ADDED s128/, 10_000);
      await ok('1.28', ['label', 'sprocket', 's128', 'watched=yes'], 0);
      await w.waitFor(/MODIFIED s128/, 10_000);
    } finally {
      w.stop();
    }
    const all = await ok('1.28', ['get', 'all', '-o', 'name'], 1);
    expect(all.split('\n').filter((l) => l.startsWith('sprocket'))).to.deep.equal(['sprocket.e2e.example.com/s128', 'sprocket.e2e.example.com/s134']);
  });

  it('deletes the objects with their CRD', async () => {
    expect(await ok('1.28', ['delete', 'crd', 'sprockets.e2e.example.com'], 1))
      .to.equal('customresourcedefinition.apiextensions.k8s.io "sprockets.e2e.example.com" deleted\n');
    const gone = await run('1.28', ['get', '--raw', '/apis/e2e.example.com/v1/namespaces/default/sprockets'], 0);
    expect(gone.code).to.not.equal(0);
    expect(gone.stderr).to.include('NotFound');
  });
});
