// `kubectl get endpoints`: NAME ENDPOINTS AGE, at most three ip:port pairs then "+ N more...".
import type { KubeObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { arr } from '../../../apis/core/types.js';

const shown = 3;

/** net.JoinHostPort: IPv6 hosts are bracketed. */
export function joinHostPort(host: string, port: unknown): string {
  return host.includes(':') ? `[${host}]:${String(port)}` : `${host}:${String(port)}`;
}

/** upstream formatEndpoints (every port; a subset without ports lists bare IPs). */
export function formatEndpoints(obj: KubeObject): string {
  const subsets = arr(obj.subsets);
  if (subsets.length === 0) return '<none>';
  const out: string[] = [];
  let count = 0;
  let more = false;
  const add = (s: string): void => { if (out.length === shown) more = true; else out.push(s); };
  for (const ss of subsets) {
    const addrs = arr(ss.addresses);
    const ports = arr(ss.ports);
    if (ports.length === 0) {
      count += addrs.length;
      for (const a of addrs) { add(String(a.ip ?? '')); if (more) break; }
      continue;
    }
    for (const p of ports) {
      count += addrs.length;
      for (const a of addrs) { add(joinHostPort(String(a.ip ?? ''), p.port)); if (more) break; }
    }
  }
  return more ? `${out.join(',')} + ${count - shown} more...` : out.join(',');
}

export const endpointsTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.'),
    ageColumn(),
  ],
  cells: (obj) => [obj.metadata.name ?? '', formatEndpoints(obj), humanAge(obj.metadata.creationTimestamp)],
};
