import { expect } from 'chai';
import { c, run } from './testing.js';

describe('PodSecurity privilege checks', () => {
  it('privileged containers, ephemeral ones included', () => {
    expect(run('privileged', { containers: [c('a', { privileged: false })] })).to.equal(undefined);
    expect(run('privileged', { containers: [c('a', { privileged: true })], ephemeralContainers: [c('dbg', { privileged: true })] }))
      .to.deep.equal({ reason: 'privileged', detail: 'containers "a", "dbg" must not set securityContext.privileged=true' });
  });

  it('baseline capabilities: only the default set may be added', () => {
    expect(run('capabilities_baseline', { containers: [c('a', { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] } })] })).to.equal(undefined);
    expect(run('capabilities_baseline', { containers: [
      c('a', { capabilities: { add: ['SYS_ADMIN', 'CHOWN'] } }), c('b', { capabilities: { add: ['NET_ADMIN', 'SYS_ADMIN'] } }),
    ] })).to.deep.equal({ reason: 'non-default capabilities', detail: 'containers "a", "b" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add' });
  });

  it('restricted capabilities: drop ALL, add at most NET_BIND_SERVICE; Windows pods exempt from v1.25', () => {
    const ok = { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } };
    expect(run('capabilities_restricted', { containers: [c('a', ok)] })).to.equal(undefined);
    expect(run('capabilities_restricted', { containers: [c('a'), c('b', { capabilities: { drop: ['ALL'], add: ['SYS_TIME'] } })] })).to.deep.equal({
      reason: 'unrestricted capabilities',
      detail: 'container "a" must set securityContext.capabilities.drop=["ALL"]; container "b" must not include "SYS_TIME" in securityContext.capabilities.add',
    });
    const windows = { os: { name: 'windows' }, containers: [c('a')] };
    expect(run('capabilities_restricted', windows, {}, 25)).to.equal(undefined);
    expect(run('capabilities_restricted', windows, {}, 24)?.reason).to.equal('unrestricted capabilities');
  });

  it('allowPrivilegeEscalation must be false explicitly', () => {
    expect(run('allowPrivilegeEscalation', { containers: [c('a', { allowPrivilegeEscalation: false })] })).to.equal(undefined);
    expect(run('allowPrivilegeEscalation', { initContainers: [c('i')], containers: [c('a', { allowPrivilegeEscalation: true })] }))
      .to.deep.equal({ reason: 'allowPrivilegeEscalation != false', detail: 'containers "i", "a" must set securityContext.allowPrivilegeEscalation=false' });
    expect(run('allowPrivilegeEscalation', { containers: [c('a')] }, {}, 7)).to.equal(undefined);
  });

  it('procMount other than Default', () => {
    expect(run('procMount', { containers: [c('a', { procMount: 'Default' }), c('b')] })).to.equal(undefined);
    expect(run('procMount', { containers: [c('a', { procMount: 'Unmasked' })] }))
      .to.deep.equal({ reason: 'procMount', detail: 'container "a" must not set securityContext.procMount to "Unmasked"' });
  });
});
