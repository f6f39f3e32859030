import { expect } from 'chai';
import { c, run } from './testing.js';

describe('PodSecurity host checks', () => {
  it('hostProcess: pod and containers setting windowsOptions.hostProcess=true', () => {
    expect(run('windowsHostProcess', { containers: [c('a', { windowsOptions: { hostProcess: false } })] })).to.equal(undefined);
    expect(run('windowsHostProcess', {
      securityContext: { windowsOptions: { hostProcess: true } },
      initContainers: [c('i', { windowsOptions: { hostProcess: true } })],
      containers: [c('a', { windowsOptions: { hostProcess: true } }), c('b')],
    })).to.deep.equal({ reason: 'hostProcess', detail: 'pod and containers "i", "a" must not set securityContext.windowsOptions.hostProcess=true' });
  });

  it('host namespaces, sorted', () => {
    expect(run('hostNamespaces', { hostNetwork: false, containers: [c('a')] })).to.equal(undefined);
    expect(run('hostNamespaces', { hostPID: true, hostNetwork: true, hostIPC: true })).to.deep.equal({ reason: 'host namespaces', detail: 'hostIPC, hostNetwork, hostPID' });
  });

  it('hostPort: containers and their distinct ports (sorted as text)', () => {
    expect(run('hostPorts', { containers: [c('a', undefined, { ports: [{ containerPort: 80, hostPort: 0 }] })] })).to.equal(undefined);
    expect(run('hostPorts', { containers: [c('a', undefined, { ports: [{ containerPort: 80, hostPort: 8080 }] })] }))
      .to.deep.equal({ reason: 'hostPort', detail: 'container "a" uses hostPort 8080' });
    expect(run('hostPorts', { containers: [
      c('a', undefined, { ports: [{ hostPort: 9000 }, { hostPort: 10000 }] }), c('b', undefined, { ports: [{ hostPort: 9000 }] }),
    ] })).to.deep.equal({ reason: 'hostPort', detail: 'containers "a", "b" use hostPorts 10000, 9000' });
  });

  it('hostPath volumes', () => {
    expect(run('hostPathVolumes', { volumes: [{ name: 'e', emptyDir: {} }] })).to.equal(undefined);
    expect(run('hostPathVolumes', { volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'e', emptyDir: {} }, { name: 'g', hostPath: { path: '/x' } }] }))
      .to.deep.equal({ reason: 'hostPath volumes', detail: 'volumes "h", "g"' });
  });
});
