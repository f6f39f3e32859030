// Not upstream's: flags for local use and tests (make run, the harness) and limits
// upstream fixes in code.
import type { FlagSection, FlagValues } from '../flags.js';
import { nonNegative } from './generic.js';

export interface LocalOptions {
  /** Where to write a system:masters kubeconfig for local use (make run). */
  writeAdminKubeconfig?: string;
  /** Data directory of the embedded etcd started when --etcd-servers is empty. */
  embeddedEtcdDataDir: string;
  /** Upstream fixes 15 s: TTL of a replica's /masterleases key; tests shorten it. */
  endpointReconcilerLeaseTTLMs: number;
  /** Upstream fixes 10 s: how often a replica refreshes its lease and the `kubernetes` Service. */
  endpointReconcilerIntervalMs: number;
  /** --max-request-body-bytes: upstream's fixed 3 MiB unless set. */
  maxRequestBodyBytes: number;
}

export const localSection: FlagSection<LocalOptions> = {
  name: 'non-upstream',
  flags: [
    { name: 'embedded-etcd-data-dir', type: 'string', default: '_output/etcd', usage: 'Data directory of the etcd started when --etcd-servers is empty.' },
    { name: 'endpoint-reconciler-interval', type: 'duration', default: '10s', usage: 'How often a replica renews its master lease (upstream: fixed 10s).' },
    { name: 'endpoint-reconciler-lease-ttl', type: 'duration', default: '15s', usage: 'TTL of a replica\'s master lease (upstream: fixed 15s).' },
    { name: 'kubelet-port', type: 'int', default: '10250', usage: 'Kubelet port used when a Node does not report one.' },
    { name: 'max-request-body-bytes', type: 'int', default: '3145728', usage: 'Largest request body accepted on a write (upstream: fixed 3 MiB); 0 for no limit.' },
    { name: 'write-admin-kubeconfig', type: 'string', usage: 'Generate a client CA and write a system:masters kubeconfig to this path.' },
  ],
  read(f: FlagValues): LocalOptions {
    return {
      writeAdminKubeconfig: f.string('write-admin-kubeconfig'),
      embeddedEtcdDataDir: f.string('embedded-etcd-data-dir')!,
      endpointReconcilerLeaseTTLMs: f.duration('endpoint-reconciler-lease-ttl'),
      endpointReconcilerIntervalMs: f.duration('endpoint-reconciler-interval'),
      maxRequestBodyBytes: nonNegative(f, 'max-request-body-bytes') || Number.POSITIVE_INFINITY,
    };
  },
};
