// Which group versions are served: upstream v1.28 leaves new beta and all alpha
// versions off unless --runtime-config turns them on (`api/all`, `api/alpha`,
// `api/beta`, `api/ga`, or `<group>/<version>`, each `=true` or `=false`).
// Only versions listed here are off by default.
const disabledByDefault = new Set([
  'authentication.k8s.io/v1beta1', 'authentication.k8s.io/v1alpha1',
  'admissionregistration.k8s.io/v1beta1', 'admissionregistration.k8s.io/v1alpha1',
  'certificates.k8s.io/v1alpha1',
]);

function stability(version: string): 'alpha' | 'beta' | 'ga' {
  if (/alpha/.test(version)) return 'alpha';
  if (/beta/.test(version)) return 'beta';
  return 'ga';
}

function flagValue(v: string): boolean {
  return v === '' || v === 'true';
}

export function versionEnabled(group: string, version: string, runtimeConfig: Record<string, string>): boolean {
  const gv = group ? `${group}/${version}` : version;
  let enabled = !disabledByDefault.has(gv);
  if ('api/all' in runtimeConfig) enabled = flagValue(runtimeConfig['api/all']!);
  const byStability = `api/${stability(version)}`;
  if (byStability in runtimeConfig) enabled = flagValue(runtimeConfig[byStability]!);
  const own = group ? gv : `api/${version}`;
  if (own in runtimeConfig) enabled = flagValue(runtimeConfig[own]!);
  else if (!group && version in runtimeConfig) enabled = flagValue(runtimeConfig[version]!);
  return enabled;
}
