// SecurityContextDeny (deprecated upstream, behind the SecurityContextDeny feature gate
// since v1.27): refuses pods that set the security-context fields it was written for
// (user, groups, SELinux). Newer fields are not covered; PodSecurity replaces it.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { arr, obj, type Obj } from '../../../apis/core/types.js';
import { errors } from '../../../runtime/errors.js';

export const pluginName = 'SecurityContextDeny';
const docLink = 'https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny';

/** Upstream refuses to start with the plugin enabled but its feature gate off. */
export function newSecurityContextDeny(gateEnabled: boolean): SecurityContextDeny {
  if (gateEnabled) return new SecurityContextDeny();
  throw new Error(`${pluginName} admission controller is an alpha feature, planned to be removed, and requires the `
    + `${pluginName} feature gate to be enabled, see ${docLink} for more information`);
}

/** The pod-level fields, in upstream's order: Go name (for the message), JSON name. */
const podFields = [
  ['SupplementalGroups', 'supplementalGroups'], ['SELinuxOptions', 'seLinuxOptions'],
  ['RunAsUser', 'runAsUser'], ['FSGroup', 'fsGroup'],
] as const;

/** Go's `!= nil`: the field is present (JSON null decodes to nil). */
function set(o: Obj | undefined, field: string): boolean {
  return o !== undefined && o[field] !== undefined && o[field] !== null;
}

export class SecurityContextDeny implements AdmissionPlugin {
  readonly name = pluginName;

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object) return;
    const spec = obj(a.object.spec);
    const deny = (what: string) => errors.forbidden({ group: a.group, resource: a.resource }, a.object?.metadata.name ?? '', `${what} is forbidden`);
    const podSC = obj(spec?.securityContext);
    for (const [goName, field] of podFields) {
      if (set(podSC, field)) throw deny(`pod.Spec.SecurityContext.${goName}`);
    }
    for (const c of [...arr(spec?.initContainers), ...arr(spec?.containers)]) {
      const sc = obj(c.securityContext);
      if (set(sc, 'seLinuxOptions')) throw deny('SecurityContext.SELinuxOptions');
      if (set(sc, 'runAsUser')) throw deny('SecurityContext.RunAsUser');
    }
  }
}
