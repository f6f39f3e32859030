import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import generated from '../generated/openapi-schema.json' with { type: 'json' };
import { definition, definitionNameForGVK, definitionNames, goTypeName, resolve } from './schema.js';

describe('generated schema module', () => {
  it('keys definitions by upstream name and keeps Role.rules items as a reference', () => {
    const role = definition('io.k8s.api.rbac.v1.Role');
    expect(role?.properties?.rules).to.deep.equal({ type: 'array', items: { $ref: 'io.k8s.api.rbac.v1.PolicyRule', default: {} } });
    expect(role?.['x-kubernetes-group-version-kind']).to.deep.equal([{ group: 'rbac.authorization.k8s.io', kind: 'Role', version: 'v1' }]);
    expect(definition('io.k8s.api.rbac.v1.PolicyRule')?.required).to.deep.equal(['verbs']);
  });

  it('carries merge markers and defaults', () => {
    const containers = definition('io.k8s.api.core.v1.PodSpec')?.properties?.containers;
    expect(containers?.['x-kubernetes-patch-merge-key']).to.equal('name');
    expect(containers?.['x-kubernetes-patch-strategy']).to.equal('merge');
    const tsc = definition('io.k8s.api.core.v1.PodSpec')?.properties?.topologySpreadConstraints;
    expect(tsc?.['x-kubernetes-list-type']).to.equal('map');
    expect(tsc?.['x-kubernetes-list-map-keys']).to.deep.equal(['topologyKey', 'whenUnsatisfiable']);
    expect(definition('io.k8s.api.core.v1.PodSpec')?.properties?.nodeSelector?.['x-kubernetes-map-type']).to.equal('atomic');
    expect(definition('io.k8s.api.core.v1.ServicePort')?.properties?.protocol?.default).to.equal('TCP');
    expect(definition('io.k8s.apimachinery.pkg.util.intstr.IntOrString')).to.deep.include({ type: 'string', format: 'int-or-string' });
    expect(definition('io.k8s.api.core.v1.SeccompProfile')?.['x-kubernetes-unions']).to.be.an('array');
  });

  it('holds no prose: no "description" key except properties named so', () => {
    const offenders: string[] = [];
    const walk = (v: unknown, path: string, underProperties: boolean): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`, false));
      if (v === null || typeof v !== 'object') return;
      for (const [k, child] of Object.entries(v)) {
        if (k === 'description' && !underProperties) offenders.push(path);
        walk(child, `${path}.${k}`, k === 'properties');
      }
    };
    walk(generated, '', false);
    expect(offenders).to.deep.equal([]);
    expect(definition('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')?.properties?.description)
      .to.deep.equal({ type: 'string' });
  });

  it('finds definitions by group/version/kind', () => {
    expect(definitionNameForGVK('', 'v1', 'ConfigMap')).to.equal('io.k8s.api.core.v1.ConfigMap');
    expect(definitionNameForGVK('apps', 'v1', 'Deployment')).to.equal('io.k8s.api.apps.v1.Deployment');
    expect(definitionNameForGVK('', 'v1', 'DeleteOptions')).to.equal('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    expect(definitionNameForGVK('example.com', 'v1', 'Widget')).to.equal(undefined);
    expect(definitionNames()).to.have.length.greaterThan(500);
  });

  it('resolves references, keeping the referencing node\'s markers', () => {
    expect(resolve({ $ref: 'io.k8s.api.core.v1.ConfigMap' }).properties).to.have.property('data');
    expect(resolve({ $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', default: {} }).default).to.deep.equal({});
    expect(() => resolve({ $ref: 'no.such.Thing' })).to.throw('unknown definition no.such.Thing');
    expect(goTypeName('io.k8s.api.core.v1.PodSpec')).to.equal('v1.PodSpec');
  });

  it('is what hack/gen-schema.mjs produces from the upstream documents', function () {
    const script = join(process.cwd(), 'hack/gen-schema.mjs');
    const upstream = join(process.cwd(), '../shared/upstream-openapi/swagger.json');
    if (!existsSync(script) || !existsSync(upstream)) this.skip();
    this.timeout(30000);
    const dir = mkdtempSync(join(tmpdir(), 'gen-schema-'));
    try {
      const out = join(dir, 'schema.json');
      execFileSync(process.execPath, [script], { env: { ...process.env, OPENAPI_SCHEMA_OUT: out }, stdio: 'pipe' });
      const committed = readFileSync(join(process.cwd(), 'pkg/generated/openapi-schema.json'), 'utf8');
      expect(readFileSync(out, 'utf8') === committed, 'committed schema is stale: run node hack/gen-schema.mjs').to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
