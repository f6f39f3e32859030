// DefaultIngressClass: a new Ingress that names no class (neither spec.ingressClassName nor
// the legacy kubernetes.io/ingress.class annotation) gets the default IngressClass.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { newestDefaultClass } from '../../defaultclass.js';
import { waitForReady, type Lister } from '../../lister.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

export const legacyClassAnnotation = 'kubernetes.io/ingress.class';
export const isDefaultClassAnnotation = 'ingressclass.kubernetes.io/is-default-class';

export class DefaultIngressClass implements AdmissionPlugin {
  readonly name = 'DefaultIngressClass';
  readonly resources = new Set(['networking.k8s.io/ingresses']);
  constructor(private readonly ingressClasses: Lister) {}

  handles(op: Operation): boolean {
    return op === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.group !== 'networking.k8s.io' || a.resource !== 'ingresses' || a.subresource !== '' || !a.object) return;
    const ingress = a.object;
    const spec = isPlainObject(ingress.spec) ? ingress.spec : {};
    if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return;
    if (ingress.metadata.annotations && legacyClassAnnotation in ingress.metadata.annotations) return;
    await waitForReady(a, this.ingressClasses);
    const def = newestDefaultClass(this.ingressClasses.list(), (c: KubeObject) => c.metadata.annotations?.[isDefaultClassAnnotation] === 'true');
    if (def) ingress.spec = { ...spec, ingressClassName: def.metadata.name };
  }
}
