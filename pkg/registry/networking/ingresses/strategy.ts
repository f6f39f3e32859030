// Ingress: rules or a default backend; each HTTP path typed; each backend a service port
// or a resource. Generation follows spec changes; status is the controller's.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { GoLiteral } from '../../../runtime/gofmt.js';
import { child, index, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../apis/networking/ports.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export const annotationIngressClass = 'kubernetes.io/ingress.class';
const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];

function obj(v: unknown): Record<string, unknown> {
  return isPlainObject(v) ? v : {};
}

export class IngressStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    if (!isPlainObject(o.status)) o.status = {};
    const status = o.status as Record<string, unknown>;
    if (!isPlainObject(status.loadBalancer)) status.loadBalancer = {};
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { loadBalancer: {} };
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    return validateIngress(o, true);
  }

  /** The class annotation check is for new objects only. */
  protected override validateObjectUpdate(o: KubeObject): FieldError[] {
    return validateIngress(o, false);
  }
}

function validateIngress(o: KubeObject, creating: boolean): FieldError[] {
  const spec = obj(o.spec);
  const errs: FieldError[] = [];
  const rules = Array.isArray(spec.rules) ? spec.rules : [];
  if (rules.length === 0 && !isPlainObject(spec.defaultBackend)) {
    errs.push(invalid('spec', new GoLiteral(Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)'),
      'either `defaultBackend` or `rules` must be specified'));
  }
  if (isPlainObject(spec.defaultBackend)) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((raw, i) => {
    const rule = obj(raw);
    const p = index('spec.rules', i);
    const host = typeof rule.host === 'string' ? rule.host : '';
    if (host !== '') {
      if (/^[0-9.]+$/.test(host) || host.includes(':')) errs.push(invalid(child(p, 'host'), host, 'must be a DNS name, not an IP address'));
      const name = host.startsWith('*.') ? host.slice(2) : host;
      for (const msg of isDNS1123Subdomain(name)) errs.push(invalid(child(p, 'host'), host, msg));
    }
    if (isPlainObject(rule.http)) {
      const paths = Array.isArray(rule.http.paths) ? rule.http.paths : [];
      if (paths.length === 0) errs.push(required(child(p, 'http', 'paths')));
      paths.forEach((path, j) => errs.push(...validatePath(obj(path), index(child(p, 'http', 'paths'), j))));
    }
  });
  if (typeof spec.ingressClassName === 'string') {
    for (const msg of isDNS1123Subdomain(spec.ingressClassName)) errs.push(invalid('spec.ingressClassName', spec.ingressClassName, msg));
  }
  const annotated = o.metadata.annotations?.[annotationIngressClass];
  if (creating && typeof spec.ingressClassName === 'string' && annotated !== undefined) {
    errs.push(invalid(`annotations.${annotationIngressClass}`, annotated, 'can not be set when the class field is also set'));
  }
  return errs;
}

function validatePath(path: Record<string, unknown>, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const value = typeof path.path === 'string' ? path.path : '';
  if (path.pathType === undefined || path.pathType === null) return [required(child(p, 'pathType'), 'pathType must be specified')];
  const type = path.pathType as string;
  if (type === 'Exact' || type === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(child(p, 'path'), value, 'must be an absolute path'));
    if (value.length > 0) {
      for (const seq of invalidPathSequences) if (value.includes(seq)) errs.push(invalid(child(p, 'path'), value, `must not contain '${seq}'`));
      for (const suf of invalidPathSuffixes) if (value.endsWith(suf)) errs.push(invalid(child(p, 'path'), value, `cannot end with '${suf}'`));
    }
  } else if (type === 'ImplementationSpecific') {
    if (value.length > 0 && !value.startsWith('/')) errs.push(invalid(child(p, 'path'), value, 'must be an absolute path'));
  } else {
    errs.push(notSupported(child(p, 'pathType'), type, pathTypes));
  }
  errs.push(...validateBackend(obj(path.backend), child(p, 'backend')));
  return errs;
}

function validateBackend(backend: Record<string, unknown>, p: string): FieldError[] {
  const hasResource = isPlainObject(backend.resource);
  const hasService = isPlainObject(backend.service);
  if (hasResource && hasService) return [invalid(p, '', 'cannot set both resource and service backends')];
  if (hasResource) {
    const r = obj(backend.resource);
    const errs: FieldError[] = [];
    if (!r.kind) errs.push(required(child(p, 'resource', 'kind')));
    if (!r.name) errs.push(required(child(p, 'resource', 'name')));
    return errs;
  }
  if (!hasService) return [invalid(p, '', 'resource or service backend is required')];
  const svc = obj(backend.service);
  const errs: FieldError[] = [];
  const name = typeof svc.name === 'string' ? svc.name : '';
  if (name === '') errs.push(required(child(p, 'service', 'name')));
  else for (const msg of isDNS1035Label(name)) errs.push(invalid(child(p, 'service', 'name'), name, msg));
  const port = obj(svc.port);
  const portName = typeof port.name === 'string' ? port.name : '';
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName && portNumber) errs.push(invalid(p, '', 'cannot set both port name & port number'));
  else if (portName) for (const msg of isValidPortName(portName)) errs.push(invalid(child(p, 'service', 'port', 'name'), portName, msg));
  else if (portNumber) for (const msg of isValidPortNum(portNumber)) errs.push(invalid(child(p, 'service', 'port', 'number'), portNumber, msg));
  else errs.push(required(p, 'port name or number is required'));
  return errs;
}
