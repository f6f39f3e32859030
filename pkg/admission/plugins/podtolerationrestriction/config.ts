// The plugin's configuration: kind Configuration in
// podtolerationrestriction.admission.k8s.io (v1alpha1, or v1), with the cluster-wide
// `default` tolerations and `whitelist` used for namespaces that set neither annotation.
import { validateToleration } from '../../../apis/core/validation.js';
import { arr, obj } from '../../../apis/core/types.js';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import { cleanToleration, type Toleration } from '../../../util/tolerations/tolerations.js';

export interface PodTolerationRestrictionConfig {
  default: Toleration[];
  whitelist: Toleration[];
}

const group = 'podtolerationrestriction.admission.k8s.io';
const versions = new Set([`${group}/v1alpha1`, `${group}/v1`]);

/** No configuration is an empty one; a wrong kind or an invalid toleration fails startup. */
export function podTolerationRestrictionConfig(doc: unknown): PodTolerationRestrictionConfig {
  if (doc === undefined || doc === null) return { default: [], whitelist: [] };
  const top = obj(doc);
  const apiVersion = typeof top?.apiVersion === 'string' ? top.apiVersion : '';
  const kind = typeof top?.kind === 'string' ? top.kind : '';
  if (!versions.has(apiVersion) || kind !== 'Configuration') {
    throw new Error(`PodTolerationRestriction: no kind "${kind}" is registered for version "${apiVersion}"`);
  }
  const errs: FieldError[] = [];
  const read = (field: 'default' | 'whitelist'): Toleration[] => arr(top?.[field]).map((t, i) => {
    errs.push(...validateToleration(t, `${field}[${i}]`));
    return cleanToleration(t);
  });
  const config = { default: read('default'), whitelist: read('whitelist') };
  if (errs.length > 0) {
    const msgs = [...new Set(errs.map((e) => fieldErrorMessage(e)))];
    throw new Error(msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);
  }
  return config;
}
