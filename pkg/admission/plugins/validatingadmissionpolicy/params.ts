// The param objects a binding selects for a policy (upstream's CollectParams): none when
// the policy has no paramKind or the binding no paramRef (one evaluation with params
// null), else by paramRef name
// or selector, in paramRef's namespace or, for a namespaced kind, the request's.
import { labelSelectorFromObject, type LabelSelectorObject } from '../../../apis/meta/labels.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

export interface ParamSource {
  namespaced: boolean;
  /** Resolves once the source's cache has its first full list. */
  ready(): Promise<void>;
  get(namespace: string, name: string): KubeObject | undefined;
  list(namespace: string): KubeObject[];
}

/** Finds the objects of a paramKind (apiVersion, kind); undefined when the kind is not served. */
export type ParamResolver = (apiVersion: string, kind: string) => ParamSource | undefined;

export type Params = { params: Array<KubeObject | null>; error?: undefined } | { error: string; params?: undefined };

export function collectParams(paramKind: { apiVersion: string; kind: string } | undefined, binding: KubeObject,
  requestNamespace: string, resolve: ParamResolver): Params {
  if (!paramKind) return { params: [null] };
  const spec = isPlainObject(binding.spec) ? binding.spec : {};
  const ref = isPlainObject(spec.paramRef) ? spec.paramRef : undefined;
  const source = resolve(paramKind.apiVersion, paramKind.kind);
  if (!source) return { error: `failed to find resource referenced by paramKind: '${paramKind.apiVersion}, Kind=${paramKind.kind}'` };
  // Documented upstream: a binding without paramRef evaluates its policy with params null.
  if (!ref) return { params: [null] };
  let namespace = '';
  if (source.namespaced) {
    namespace = typeof ref.namespace === 'string' && ref.namespace ? ref.namespace : requestNamespace;
    if (!namespace) return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  }
  let found: KubeObject[] = [];
  if (typeof ref.name === 'string' && ref.name) {
    const obj = source.get(namespace, ref.name);
    if (obj) found = [obj];
  } else if (isPlainObject(ref.selector)) {
    try {
      const sel = labelSelectorFromObject(ref.selector as LabelSelectorObject);
      found = source.list(namespace).filter((o) => sel.matches(o.metadata.labels ?? {}));
    } catch (err) {
      return { error: (err as Error).message };
    }
  }
  if (found.length > 0) return { params: found };
  if (ref.parameterNotFoundAction === 'Allow') return { params: [] };
  return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
}
