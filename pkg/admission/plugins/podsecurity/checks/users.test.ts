import { expect } from 'chai';
import { c, run } from './testing.js';

describe('PodSecurity user checks', () => {
  it('runAsNonRoot: explicit false first, then containers not covered by the pod', () => {
    expect(run('runAsNonRoot', { securityContext: { runAsNonRoot: true }, containers: [c('a')] })).to.equal(undefined);
    expect(run('runAsNonRoot', { securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: false }), c('b')] }))
      .to.deep.equal({ reason: 'runAsNonRoot != true', detail: 'pod and container "a" must not set securityContext.runAsNonRoot=false' });
    expect(run('runAsNonRoot', { containers: [c('a', { runAsNonRoot: true }), c('b'), c('d')] }))
      .to.deep.equal({ reason: 'runAsNonRoot != true', detail: 'pod or containers "b", "d" must set securityContext.runAsNonRoot=true' });
  });

  it('runAsUser=0 refused from v1.23', () => {
    expect(run('runAsUser', { securityContext: { runAsUser: 1000 }, containers: [c('a')] })).to.equal(undefined);
    const spec = { securityContext: { runAsUser: 0 }, containers: [c('a', { runAsUser: 0 })] };
    expect(run('runAsUser', spec)).to.deep.equal({ reason: 'runAsUser=0', detail: 'pod and container "a" must not set runAsUser=0' });
    expect(run('runAsUser', spec, {}, 22)).to.equal(undefined);
  });
});
