import { expect } from 'chai';
import { c, run } from './testing.js';

describe('PodSecurity profile checks', () => {
  it('AppArmor beta annotations: runtime/default, localhost/* or empty only', () => {
    const prefix = 'container.apparmor.security.beta.kubernetes.io/';
    expect(run('appArmorProfile', {}, { annotations: { [`${prefix}a`]: 'runtime/default', [`${prefix}b`]: 'localhost/x', [`${prefix}c`]: '' } })).to.equal(undefined);
    expect(run('appArmorProfile', {}, { annotations: { [`${prefix}a`]: 'unconfined' } }))
      .to.deep.equal({ reason: 'forbidden AppArmor profile', detail: `${prefix}a="unconfined"` });
    expect(run('appArmorProfile', {}, { annotations: { [`${prefix}f`]: 'unknown', [`${prefix}e`]: 'unconfined' } }))
      .to.deep.equal({ reason: 'forbidden AppArmor profiles', detail: `${prefix}e="unconfined", ${prefix}f="unknown"` });
  });

  it('seLinuxOptions: type from the container set, no user or role', () => {
    expect(run('seLinuxOptions', { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0' } }, containers: [c('a')] })).to.equal(undefined);
    expect(run('seLinuxOptions', {
      securityContext: { seLinuxOptions: { type: 'spc_t' } },
      containers: [c('a', { seLinuxOptions: { user: 'root', role: 'sysadm_r' } })],
    })).to.deep.equal({ reason: 'seLinuxOptions', detail: 'pod and container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set' });
  });

  it('baseline seccomp: no Unconfined (fields from v1.19, annotations before)', () => {
    expect(run('seccompProfile_baseline', { containers: [c('a')] })).to.equal(undefined);
    expect(run('seccompProfile_baseline', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } })] }))
      .to.deep.equal({ reason: 'seccompProfile', detail: 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"' });
    expect(run('seccompProfile_baseline', { containers: [c('a')] }, { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, 18))
      .to.deep.equal({ reason: 'seccompProfile', detail: 'forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined"' });
  });

  it('restricted seccomp: RuntimeDefault or Localhost must be set, on the pod or every container', () => {
    expect(run('seccompProfile_restricted', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a')] })).to.equal(undefined);
    expect(run('seccompProfile_restricted', { containers: [c('a', { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } }), c('b')] }))
      .to.deep.equal({ reason: 'seccompProfile', detail: 'pod or container "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' });
    expect(run('seccompProfile_restricted', { os: { name: 'windows' }, containers: [c('a')] })).to.equal(undefined);
  });

  it('sysctls outside the safe set; ip_local_reserved_ports safe from v1.27', () => {
    const spec = { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.ip_local_reserved_ports', value: '1' }, { name: 'net.ipv4.tcp_syncookies', value: '1' }] } };
    expect(run('sysctls', spec)).to.deep.equal({ reason: 'forbidden sysctls', detail: 'kernel.msgmax' });
    expect(run('sysctls', spec, {}, 26)).to.deep.equal({ reason: 'forbidden sysctls', detail: 'kernel.msgmax, net.ipv4.ip_local_reserved_ports' });
  });
});
