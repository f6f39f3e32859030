// Upstream's "kube-aware" version ordering (apimachinery's CompareKubeAwareVersionStrings):
// GA before beta before alpha, then higher major, then higher minor; strings that are not
// kube-like versions (v<N>[alpha|beta<M>]) sort after all kube-like ones, alphabetically.

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const stability: Record<string, number> = { alpha: 0, beta: 1, '': 2 };

interface ParsedVersion { major: number; stability: number; minor: number }

function parse(v: string): ParsedVersion | undefined {
  const m = kubeVersion.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), stability: stability[m[2] ?? ''], minor: Number(m[3] ?? 0) };
}

/** Positive when `a` is preferred over (sorts before) `b`, negative when after, 0 when equal. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? 1 : -1;
  if (!pa) return -1;
  if (!pb) return 1;
  if (pa.stability !== pb.stability) return pa.stability - pb.stability;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}

/** Sorts most preferred first. */
export function sortKubeAwareVersions(versions: string[]): string[] {
  return [...versions].sort((a, b) => compareKubeAwareVersions(b, a));
}
