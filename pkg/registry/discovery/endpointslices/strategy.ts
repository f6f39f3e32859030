// discovery.k8s.io/v1 EndpointSlice: port defaults, generation, v1's dropping of
// deprecatedTopology, and upstream's ValidateEndpointSlice{Create,Update}.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { child, duplicate, index, invalid, notSupported, required, tooMany } from '../../../apis/validation/field.js';
import { validateIPv4Address, validateIPv6Address, validateNonSpecialIP } from '../../../apis/validation/ip.js';
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField, validateLabels, validateQualifiedName } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';
import { protocols } from '../../core/endpoints/strategy.js';
import { arr, type Obj } from '../../../apis/core/types.js';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const maxTopologyLabels = 16;
const maxAddresses = 100;
const maxPorts = 20000;
const maxEndpoints = 1000;
const maxZoneHints = 8;

/** upstream SetDefaults_EndpointPort; conditions is a struct in v1, so always present. */
export function defaultEndpointSlice(obj: KubeObject): void {
  for (const p of arr(obj.ports)) {
    p.name ??= '';
    p.protocol ??= 'TCP';
  }
  for (const e of arr(obj.endpoints)) if (!isPlainObject(e.conditions)) e.conditions = {};
}

export class EndpointSliceStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, tracksGeneration: true });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultEndpointSlice(obj);
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    dropDeprecatedTopology(obj, undefined);
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject, _ctx: StrategyContext): void {
    // Upstream also counts a label change as a new generation (the slice's service binding).
    if (obj.metadata.generation === old.metadata.generation && !deepEqual(obj.metadata.labels ?? {}, old.metadata.labels ?? {})) {
      obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    }
    dropDeprecatedTopology(obj, old);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const type = typeof obj.addressType === 'string' ? obj.addressType : '';
    const errs: FieldError[] = [];
    if (type === '') errs.push(required('addressType', ''));
    else if (!addressTypes.includes(type)) errs.push(notSupported('addressType', type, addressTypes));
    return [...errs, ...validateEndpoints(obj.endpoints, type), ...validatePorts(obj.ports)];
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    return [...this.validateObject(obj), ...validateImmutableField(obj.addressType, old.addressType, 'addressType')];
  }
}

/**
 * v1 has no topology map: written through v1, deprecatedTopology goes (unless the
 * endpoints are unchanged); a hostname label naming a node already there becomes nodeName.
 */
function dropDeprecatedTopology(obj: KubeObject, old: KubeObject | undefined): void {
  if (old && deepEqual(obj.endpoints, old.endpoints)) return;
  const prevNodes = new Set(arr(old?.endpoints).map((e) => (isPlainObject(e.deprecatedTopology) ? e.deprecatedTopology['kubernetes.io/hostname'] : undefined)));
  for (const e of arr(obj.endpoints)) {
    if (!isPlainObject(e.deprecatedTopology)) continue;
    const host = e.deprecatedTopology['kubernetes.io/hostname'];
    if (e.nodeName === undefined && typeof host === 'string' && prevNodes.has(host) && nameIsDNSSubdomain(host, false).length === 0) e.nodeName = host;
    delete e.deprecatedTopology;
  }
}

function validateEndpoints(endpoints: unknown, type: string): FieldError[] {
  const all = arr(endpoints);
  if (all.length > maxEndpoints) return [tooMany('endpoints', all.length, maxEndpoints)];
  const errs: FieldError[] = [];
  all.forEach((e, i) => {
    const p = index('endpoints', i);
    const ap = child(p, 'addresses');
    const addrs = Array.isArray(e.addresses) ? e.addresses as unknown[] : [];
    if (addrs.length === 0) errs.push(required(ap, 'must contain at least 1 address'));
    else if (addrs.length > maxAddresses) errs.push(tooMany(ap, addrs.length, maxAddresses));
    addrs.forEach((a, j) => {
      const s = typeof a === 'string' ? a : '';
      const f = index(ap, j);
      if (type === 'IPv4') errs.push(...validateIPv4Address(f, s), ...validateNonSpecialIP(s, f));
      else if (type === 'IPv6') errs.push(...validateIPv6Address(f, s), ...validateNonSpecialIP(s, f));
      else if (type === 'FQDN') errs.push(...fullyQualifiedDomainName(f, s));
    });
    if (typeof e.nodeName === 'string') {
      for (const m of nameIsDNSSubdomain(e.nodeName, false)) errs.push(invalid(child(p, 'nodeName'), e.nodeName, m));
    }
    if (isPlainObject(e.deprecatedTopology)) {
      const tp = child(p, 'deprecatedTopology');
      const n = Object.keys(e.deprecatedTopology).length;
      if (n > maxTopologyLabels) errs.push(tooMany(tp, n, maxTopologyLabels));
      errs.push(...validateLabels(e.deprecatedTopology as Record<string, string>, tp));
    }
    if (typeof e.hostname === 'string') for (const m of isDNS1123Label(e.hostname)) errs.push(invalid(child(p, 'hostname'), e.hostname, m));
    if (isPlainObject(e.hints)) errs.push(...validateHints(e.hints, child(p, 'hints')));
  });
  return errs;
}

function validateHints(hints: Obj, p: string): FieldError[] {
  const zones = arr(hints.forZones);
  const fp = child(p, 'forZones');
  if (zones.length > maxZoneHints) return [tooMany(fp, zones.length, maxZoneHints)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const name = typeof z.name === 'string' ? z.name : '';
    const zp = child(index(fp, i), 'name');
    if (seen.has(name)) errs.push(duplicate(zp, name));
    seen.add(name);
    for (const m of isValidLabelValue(name)) errs.push(invalid(zp, name, m));
  });
  return errs;
}

function validatePorts(ports: unknown): FieldError[] {
  const all = arr(ports);
  if (all.length > maxPorts) return [tooMany('ports', all.length, maxPorts)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  all.forEach((port, i) => {
    const p = index('ports', i);
    const name = typeof port.name === 'string' ? port.name : '';
    if (name !== '') for (const m of isDNS1123Label(name)) errs.push(invalid(child(p, 'name'), name, m));
    if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
    names.add(name);
    if (port.protocol === undefined || port.protocol === null) errs.push(required(child(p, 'protocol'), ''));
    else if (!protocols.includes(port.protocol as string)) errs.push(notSupported(child(p, 'protocol'), port.protocol, protocols));
    if (typeof port.appProtocol === 'string') errs.push(...validateQualifiedName(port.appProtocol, child(p, 'appProtocol')));
  });
  return errs;
}

/** upstream IsFullyQualifiedDomainName (a trailing dot is allowed). */
function fullyQualifiedDomainName(p: string, value: string): FieldError[] {
  if (value === '') return [required(p, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const sub = isDNS1123Subdomain(name);
  if (sub.length > 0) return [invalid(p, name, sub.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(p, name, 'should be a domain with at least two segments separated by dots')];
  for (const l of labels) {
    const e = isDNS1123Label(l);
    if (e.length > 0) return [invalid(p, l, e.join(','))];
  }
  return [];
}
