// DenyServiceExternalIPs: no Service may start using spec.externalIPs (they let a
// tenant intercept traffic to any address, CVE-2020-8554). Keeping or dropping
// addresses a Service already had stays allowed, so existing Services can be cleaned up.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { obj } from '../../../apis/core/types.js';

function externalIPs(o: unknown): string[] {
  const ips = obj(obj(o)?.spec)?.externalIPs;
  return Array.isArray(ips) ? ips.filter((ip): ip is string => typeof ip === 'string') : [];
}

export class DenyServiceExternalIPs implements AdmissionPlugin {
  readonly name = 'DenyServiceExternalIPs';

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'services' || a.subresource !== '') return;
    const wanted = externalIPs(a.object);
    if (wanted.length === 0) return;
    const had = new Set(a.oldObject ? externalIPs(a.oldObject) : []);
    if (a.oldObject && wanted.every((ip) => had.has(ip))) return;
    throw admissionForbidden(a, 'Use of external IPs is denied by admission control');
  }
}
