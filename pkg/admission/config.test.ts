import { expect } from 'chai';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAdmissionConfiguration } from './config.js';

describe('--admission-control-config-file (AdmissionConfiguration)', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'admcfg-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads inline configurations and files named by relative paths (resolved against the file\'s directory)', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'erl.yaml'), 'apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits: []\n');
    writeFileSync(join(dir, 'admission.yaml'), [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: EventRateLimit',
      '  path: sub/erl.yaml',
      '- name: PodSecurity',
      '  configuration:',
      '    apiVersion: pod-security.admission.config.k8s.io/v1',
      '    kind: PodSecurityConfiguration',
      '    defaults: {enforce: baseline}',
    ].join('\n'));
    const got = readAdmissionConfiguration(join(dir, 'admission.yaml'));
    expect(got.get('EventRateLimit')).to.deep.equal({
      configuration: { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [] },
      baseDir: join(dir, 'sub'),
    });
    expect(got.get('PodSecurity')?.configuration).to.have.nested.property('defaults.enforce', 'baseline');
    expect(got.get('PodSecurity')?.baseDir).to.equal(dir);
  });

  it('is a startup error when the file is missing or of another kind', () => {
    expect(() => readAdmissionConfiguration(join(dir, 'nope.yaml'))).to.throw(/unable to read admission control configuration/);
    writeFileSync(join(dir, 'x.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
    expect(() => readAdmissionConfiguration(join(dir, 'x.yaml'))).to.throw(/expected kind AdmissionConfiguration/);
  });

  it('gives no configuration when no file is named', () => {
    expect(readAdmissionConfiguration(undefined).size).to.equal(0);
  });
});
