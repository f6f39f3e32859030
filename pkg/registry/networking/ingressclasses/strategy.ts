// IngressClass: a domain-prefixed controller that never changes; optional parameters.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain, regexError } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

const maxControllerLength = 250;
const httpPath = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const parameterScopes = ['Cluster', 'Namespace'];

export class IngressClassStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, tracksGeneration: true });
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = isPlainObject(o.spec) ? o.spec : {};
    const controller = typeof spec.controller === 'string' ? spec.controller : '';
    const errs: FieldError[] = [];
    if (controller.length > maxControllerLength) {
      errs.push({ type: 'FieldValueTooLong', field: 'spec.controller', value: controller, detail: `must have at most ${maxControllerLength} bytes` });
    }
    errs.push(...domainPrefixedPath('spec.controller', controller));
    if (isPlainObject(spec.parameters)) {
      const p = spec.parameters;
      if (!p.kind) errs.push(required('spec.parameters.kind'));
      if (!p.name) errs.push(required('spec.parameters.name'));
      if (p.scope !== undefined && !parameterScopes.includes(p.scope as string)) errs.push(notSupported('spec.parameters.scope', p.scope, parameterScopes));
      if (p.scope === 'Namespace' && !p.namespace) errs.push(required('spec.parameters.namespace', '`parameters.scope` is set to "Namespace"'));
    }
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const spec = isPlainObject(o.spec) ? o.spec : {};
    const oldSpec = isPlainObject(old.spec) ? old.spec : {};
    return [...this.validateObject(o), ...validateImmutableField(spec.controller, oldSpec.controller, 'spec.controller')];
  }
}

/** Upstream's IsDomainPrefixedPath ("acme.io/foo"). */
function domainPrefixedPath(field: string, value: string): FieldError[] {
  if (value === '') return [required(field)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const path = value.slice(slash + 1);
  const errs = isDNS1123Subdomain(host).map((msg) => invalid(field, host, msg));
  if (!httpPath.test(path)) errs.push(invalid(field, path, regexError('Invalid path', httpPathFmt)));
  return errs;
}
