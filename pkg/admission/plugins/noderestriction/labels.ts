// Which Node labels a kubelet may set on its own Node (upstream kubeletapis.IsKubeletLabel
// and NodeRestriction's forbidden-label rule): nothing under node-restriction.kubernetes.io,
// and under kubernetes.io / k8s.io only the well-known labels and the kubelet's namespaces.

const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type',
  'beta.kubernetes.io/os', 'beta.kubernetes.io/arch', 'kubernetes.io/os', 'kubernetes.io/arch',
]);
const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const nodeRestrictionNamespace = 'node-restriction.kubernetes.io';

const labelNamespace = (key: string): string => { const i = key.indexOf('/'); return i < 0 ? '' : key.slice(0, i); };
const inNamespace = (ns: string, parent: string): boolean => ns === parent || ns.endsWith(`.${parent}`);

function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const ns = labelNamespace(key);
  return kubeletLabelNamespaces.some((k) => inNamespace(ns, k));
}

/** Keys added, removed or changed between the two label sets. */
export function modifiedLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): string[] {
  const x = a ?? {};
  const y = b ?? {};
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].filter((k) => !(k in x) || !(k in y) || x[k] !== y[k]);
}

/** The modified keys a node may not touch, sorted (upstream prints them so). */
export function forbiddenLabels(modified: string[]): string[] {
  return modified.filter((key) => {
    const ns = labelNamespace(key);
    if (inNamespace(ns, nodeRestrictionNamespace)) return true;
    const kubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
    return kubernetes && !isKubeletLabel(key);
  }).sort();
}
