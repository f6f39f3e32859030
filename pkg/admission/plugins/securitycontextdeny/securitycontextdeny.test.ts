import { expect } from 'chai';
import { podAttrs, rejection } from '../../testing.js';
import { newSecurityContextDeny } from './index.js';

describe('SecurityContextDeny', () => {
  const p = newSecurityContextDeny(true);

  it('cannot be built without its feature gate, with upstream words', () => {
    expect(() => newSecurityContextDeny(false)).to.throw('SecurityContextDeny admission controller is an alpha feature, planned to be removed, and requires the SecurityContextDeny feature gate to be enabled, see https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny for more information');
  });

  it('refuses each pod-level field, in upstream order', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ supplementalGroups: [1], runAsUser: 1 }, 'pod.Spec.SecurityContext.SupplementalGroups'],
      [{ seLinuxOptions: { level: 's0' }, fsGroup: 2 }, 'pod.Spec.SecurityContext.SELinuxOptions'],
      [{ runAsUser: 0 }, 'pod.Spec.SecurityContext.RunAsUser'],
      [{ fsGroup: 2 }, 'pod.Spec.SecurityContext.FSGroup'],
    ];
    for (const [sc, field] of cases) {
      const err = await rejection(p.validate(podAttrs({ securityContext: sc, containers: [] })));
      expect(err.code).to.equal(403);
      expect(err.message).to.equal(`pods "p" is forbidden: ${field} is forbidden`);
    }
  });

  it('refuses container and init container SELinuxOptions and RunAsUser', async () => {
    const init = await rejection(p.validate(podAttrs({ initContainers: [{ name: 'i', securityContext: { runAsUser: 1 } }], containers: [] })));
    expect(init.message).to.equal('pods "p" is forbidden: SecurityContext.RunAsUser is forbidden');
    const c = await rejection(p.validate(podAttrs({ containers: [{ name: 'c', securityContext: { seLinuxOptions: {}, runAsUser: 1 } }] })));
    expect(c.message).to.equal('pods "p" is forbidden: SecurityContext.SELinuxOptions is forbidden');
  });

  it('allows other security-context fields, and ignores subresources', async () => {
    await p.validate(podAttrs({ securityContext: { runAsNonRoot: true, fsGroupChangePolicy: 'Always' },
      containers: [{ name: 'c', securityContext: { privileged: true, runAsGroup: 3 } }] }));
    await p.validate(podAttrs({ securityContext: { runAsUser: 1 } }, { subresource: 'status' }));
  });
});
