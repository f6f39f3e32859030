import { expect } from 'chai';
import { run } from './testing.js';

describe('PodSecurity restricted volumes', () => {
  it('allows configMap, secret, projected, emptyDir, PVC, CSI, ephemeral and downwardAPI', () => {
    expect(run('restrictedVolumes', { volumes: [
      { name: 'a', configMap: { name: 'x' } }, { name: 'b', secret: { secretName: 'x' } }, { name: 'c', projected: { sources: [] } },
      { name: 'd', emptyDir: {} }, { name: 'e', persistentVolumeClaim: { claimName: 'x' } }, { name: 'f', csi: { driver: 'x' } },
      { name: 'g', ephemeral: {} }, { name: 'h', downwardAPI: {} },
    ] })).to.equal(undefined);
  });

  it('names the volumes and their distinct types', () => {
    expect(run('restrictedVolumes', { volumes: [{ name: 'h', hostPath: { path: '/' } }] }))
      .to.deep.equal({ reason: 'restricted volume types', detail: 'volume "h" uses restricted volume type "hostPath"' });
    expect(run('restrictedVolumes', { volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }, { name: 'h', hostPath: { path: '/' } }, { name: 'u' }] }))
      .to.deep.equal({ reason: 'restricted volume types', detail: 'volumes "n", "h", "u" use restricted volume types "hostPath", "nfs", "unknown"' });
  });
});
