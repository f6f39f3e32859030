// Where pods and pod-bearing objects keep the pod metadata and spec to evaluate, and
// which pod updates can change the outcome at all.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { list, obj, str, type Json, type PodMeta } from './checks/types.js';

export interface PodView { meta: PodMeta; spec: Json }

type Extract = (o: KubeObject) => unknown;

const templateOfSpec: Extract = (o) => obj(o.spec).template;

// Pod controllers: their templates are warned and audited about, never enforced.
const templates: Record<string, Extract> = {
  '/replicationcontrollers': templateOfSpec,
  '/podtemplates': (o) => (o as Json).template,
  'apps/replicasets': templateOfSpec,
  'apps/deployments': templateOfSpec,
  'apps/statefulsets': templateOfSpec,
  'apps/daemonsets': templateOfSpec,
  'batch/jobs': templateOfSpec,
  'batch/cronjobs': (o) => obj(obj(obj(o.spec).jobTemplate).spec).template,
};

/** The pod controllers' resources, 'group/resource'. */
export const podTemplateResources: readonly string[] = Object.keys(templates);

export function hasPodTemplate(group: string, resource: string): boolean {
  return `${group}/${resource}` in templates;
}

/** The template's metadata and spec; undefined when the object carries no template. */
export function extractTemplate(group: string, resource: string, o: KubeObject): PodView | undefined {
  const t = templates[`${group}/${resource}`]?.(o);
  if (!isPlainObject(t)) return undefined;
  return { meta: metaOf(t.metadata), spec: obj(t.spec) };
}

export function podView(pod: KubeObject): PodView {
  return { meta: metaOf(pod.metadata), spec: obj(pod.spec) };
}

function metaOf(m: unknown): PodMeta {
  const annotations = obj(obj(m).annotations) as Record<string, string>;
  return { annotations };
}

const seccompContainerAnnotation = 'container.seccomp.security.alpha.kubernetes.io/';

/**
 * Only images (and ephemeral containers) can change in a running pod's security-relevant
 * fields; other updates, e.g. of labels or status, are admitted without evaluation.
 */
export function isSignificantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = obj(pod.spec);
  const oldSpec = obj(old.spec);
  const annotations = obj(pod.metadata.annotations);
  const oldAnnotations = obj(old.metadata.annotations);
  const changed = (c: Json, o: Json): boolean => str(c.image) !== str(o.image)
    || annotations[seccompContainerAnnotation + str(c.name)] !== oldAnnotations[seccompContainerAnnotation + str(c.name)];
  for (const field of ['containers', 'initContainers']) {
    const now = list(spec[field]);
    const before = list(oldSpec[field]);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => changed(c, before[i]))) return true;
  }
  const oldEphemeral = list(oldSpec.ephemeralContainers);
  for (const c of list(spec.ephemeralContainers)) {
    const prior = oldEphemeral.find((o) => str(o.name) === str(c.name));
    if (!prior || changed(c, prior)) return true;
  }
  return false;
}
