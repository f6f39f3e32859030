// Endpoints: the protocol default, upstream's ValidateEndpoints (addresses must be real,
// non-special IPs; ports named when there are several) and RepackSubsets on write.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { child, index, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isValidIP, validateNonSpecialIP } from '../../../apis/validation/ip.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateQualifiedName } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { repackSubsets } from './repack.js';
import { arr, type Obj } from '../../../apis/core/types.js';

export const protocols = ['SCTP', 'TCP', 'UDP'];

/** upstream SetDefaults_Endpoints. */
export function defaultEndpoints(obj: KubeObject): void {
  for (const ss of arr(obj.subsets)) {
    for (const p of arr(ss.ports)) p.protocol ??= 'TCP';
  }
}

export class EndpointsStrategy extends BaseStrategy {
  constructor() {
    // Upstream lets a PUT create Endpoints (controllers write them unconditionally).
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, allowCreateOnUpdate: true });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultEndpoints(obj);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateSubsets(obj.subsets);
  }

  override canonicalize(obj: KubeObject): void {
    if (obj.subsets === undefined || obj.subsets === null) return;
    const packed = repackSubsets(obj.subsets);
    if (packed.length > 0) obj.subsets = packed;
    else delete obj.subsets;
  }
}

export function validateSubsets(subsets: unknown): FieldError[] {
  const errs: FieldError[] = [];
  arr(subsets).forEach((ss, i) => {
    const p = index('subsets', i);
    const ready = arr(ss.addresses);
    const notReady = arr(ss.notReadyAddresses);
    if (ready.length === 0 && notReady.length === 0) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    ready.forEach((a, j) => errs.push(...validateAddress(a, index(child(p, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, index(child(p, 'notReadyAddresses'), j))));
    const ports = arr(ss.ports);
    ports.forEach((port, j) => errs.push(...validatePort(port, ports.length > 1, index(child(p, 'ports'), j))));
  });
  return errs;
}

function validateAddress(a: Obj, p: string): FieldError[] {
  const ip = typeof a.ip === 'string' ? a.ip : '';
  const errs = isValidIP(ip).map((m) => invalid(child(p, 'ip'), ip, m));
  if (typeof a.hostname === 'string' && a.hostname !== '') {
    for (const m of isDNS1123Label(a.hostname)) errs.push(invalid(child(p, 'hostname'), a.hostname, m));
  }
  if (typeof a.nodeName === 'string') {
    for (const m of nameIsDNSSubdomain(a.nodeName, false)) errs.push(invalid(child(p, 'nodeName'), a.nodeName, m));
  }
  return [...errs, ...validateNonSpecialIP(ip, child(p, 'ip'))];
}

function validatePort(port: Obj, requireName: boolean, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof port.name === 'string' ? port.name : '';
  if (requireName && name === '') errs.push(required(child(p, 'name'), ''));
  else if (name !== '') for (const m of isDNS1123Label(name)) errs.push(invalid(child(p, 'name'), name, m));
  const num = typeof port.port === 'number' ? port.port : 0;
  if (!(Number.isInteger(num) && num >= 1 && num <= 65535)) errs.push(invalid(child(p, 'port'), num, 'must be between 1 and 65535, inclusive'));
  if (!port.protocol) errs.push(required(child(p, 'protocol'), ''));
  else if (!protocols.includes(port.protocol as string)) errs.push(notSupported(child(p, 'protocol'), port.protocol, protocols));
  if (typeof port.appProtocol === 'string') errs.push(...validateQualifiedName(port.appProtocol, child(p, 'appProtocol')));
  return errs;
}
