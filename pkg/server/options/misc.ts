// Upstream's "misc" flag set (kube-apiserver's own options): Events, Service ranges, the
// `kubernetes` Service's endpoints, kubelet client, aggregator proxy.
import { parseAggregatorOptions, type AggregatorOptions } from '../../aggregator/options.js';
import type { EndpointReconcilerType } from '../../controller/kubernetesservice/index.js';
import { defaultPreferredAddressTypes, type KubeletClientOptions } from '../../kubelet/client.js';
import { parseServiceClusterIPRange, parseServiceNodePortRange } from '../../registry/core/services/allocator/config.js';
import type { FlagSection, FlagValues } from '../flags.js';

export type { EndpointReconcilerType };

export interface MiscOptions {
  /** --event-ttl: how long Events are kept (default 1h). */
  eventTTLSeconds: number;
  serviceAccountSigningKeyFile?: string;
  /** --service-cluster-ip-range: one CIDR, or two of different families; checked at parse time. */
  serviceClusterIPRange?: string;
  /** --service-node-port-range (default 30000-32767). */
  serviceNodePortRange?: string;
  /** --endpoint-reconciler-type: how the `kubernetes` Endpoints follow the live replicas. */
  endpointReconcilerType: EndpointReconcilerType;
  /** --apiserver-count: replicas the master-count reconciler keeps (default 1). */
  apiserverCount: number;
  /** --kubelet-*: how the server reaches kubelets for logs, exec, attach, port-forward and proxy. */
  kubelet: KubeletClientOptions;
  /** --proxy-client-cert-file, --proxy-client-key-file, --enable-aggregator-routing. */
  aggregator: AggregatorOptions;
}

const endpointReconcilerTypes: EndpointReconcilerType[] = ['master-count', 'lease', 'none'];
const nodeAddressTypes = ['Hostname', 'ExternalIP', 'InternalIP', 'ExternalDNS', 'InternalDNS'];

export const miscSection: FlagSection<MiscOptions> = {
  name: 'misc',
  flags: [
    { name: 'aggregator-reject-forwarding-redirect', type: 'bool', default: 'true', usage: 'Refuse to forward redirects from aggregated API servers to the client.', notImplemented: true },
    { name: 'allow-privileged', type: 'bool', usage: 'Allow privileged containers (pods are not refused for them here either way).', notImplemented: true },
    { name: 'apiserver-count', type: 'int', default: '1', usage: 'Replicas in the cluster, with --endpoint-reconciler-type=master-count; positive.' },
    { name: 'enable-aggregator-routing', type: 'bool', usage: 'Proxy aggregated APIs to a Service\'s endpoint IPs instead of its cluster IP.' },
    { name: 'enable-logs-handler', type: 'bool', default: 'true', usage: 'Serve the apiserver\'s log files under /logs.', notImplemented: true },
    { name: 'endpoint-reconciler-type', type: 'string', default: 'lease', usage: 'How the `kubernetes` Service\'s endpoints follow the replicas: master-count, lease, none.' },
    { name: 'event-ttl', type: 'duration', default: '1h0m0s', usage: 'How long Events are kept.' },
    { name: 'identity-lease-duration-seconds', type: 'int', default: '3600', usage: 'Duration of this apiserver\'s identity Lease (APIServerIdentity).', notImplemented: true },
    { name: 'identity-lease-renew-interval-seconds', type: 'int', default: '10', usage: 'Renewal interval of the identity Lease (APIServerIdentity).', notImplemented: true },
    { name: 'kubelet-certificate-authority', type: 'string', usage: 'CA bundle that verifies kubelets\' serving certificates.' },
    { name: 'kubelet-client-certificate', type: 'string', usage: 'Client certificate presented to kubelets.' },
    { name: 'kubelet-client-key', type: 'string', usage: 'Key of --kubelet-client-certificate.' },
    { name: 'kubelet-preferred-address-types', type: 'strings', default: defaultPreferredAddressTypes.join(','), usage: 'Node address types tried in order to reach a kubelet.' },
    { name: 'kubelet-timeout', type: 'duration', default: '5s', usage: 'Timeout of calls to kubelets.' },
    { name: 'kubernetes-service-node-port', type: 'int', usage: 'Make the `kubernetes` Service a NodePort Service on this port; 0: ClusterIP.', notImplemented: true },
    { name: 'max-connection-bytes-per-sec', type: 'int', usage: 'Throttle each long-running connection to this many bytes per second; 0: no limit.', notImplemented: true },
    { name: 'peer-advertise-ip', type: 'string', usage: 'IP other apiservers use to proxy to this one (UnknownVersionInteroperabilityProxy).', notImplemented: true },
    { name: 'peer-advertise-port', type: 'string', usage: 'Port other apiservers use to proxy to this one (UnknownVersionInteroperabilityProxy).', notImplemented: true },
    { name: 'peer-ca-file', type: 'string', usage: 'CA bundle verifying peer apiservers\' serving certificates (UnknownVersionInteroperabilityProxy).', notImplemented: true },
    { name: 'proxy-client-cert-file', type: 'string', usage: 'Client certificate presented to aggregated API servers, which carry the caller in X-Remote-* headers.' },
    { name: 'proxy-client-key-file', type: 'string', usage: 'Key of --proxy-client-cert-file.' },
    { name: 'service-account-signing-key-file', type: 'string', usage: 'Private key that signs service account tokens issued by the TokenRequest API.' },
    { name: 'service-cluster-ip-range', type: 'string', usage: 'CIDR Service cluster IPs come from, or an IPv4 and an IPv6 CIDR for dual-stack.' },
    { name: 'service-node-port-range', type: 'portRange', default: '30000-32767', usage: 'Port range NodePort Services get their ports from, inclusive.' },
  ],
  read(f: FlagValues): MiscOptions {
    return {
      eventTTLSeconds: Math.ceil(f.duration('event-ttl') / 1000),
      serviceAccountSigningKeyFile: f.string('service-account-signing-key-file'),
      serviceClusterIPRange: checked(f.string('service-cluster-ip-range'), parseServiceClusterIPRange),
      serviceNodePortRange: checked(f.has('service-node-port-range') ? f.string('service-node-port-range') : undefined, parseServiceNodePortRange),
      endpointReconcilerType: endpointReconcilerType(f.string('endpoint-reconciler-type')),
      apiserverCount: apiserverCount(f.int('apiserver-count')),
      kubelet: kubeletOptions(f),
      aggregator: parseAggregatorOptions((n) => f.string(n), (n) => f.bool(n)),
    };
  },
};

/** A flag value its parser accepts (the parser throws upstream's message otherwise). */
function checked(v: string | undefined, parse: (v: string | undefined) => unknown): string | undefined {
  parse(v);
  return v;
}

function endpointReconcilerType(v: string | undefined): EndpointReconcilerType {
  if (v === undefined || v === '') return 'lease';
  const t = endpointReconcilerTypes.find((x) => x === v);
  // Upstream exits at start with this message for an unknown type.
  if (!t) throw new Error(`Reconciler not implemented: ${v}`);
  return t;
}

function apiserverCount(n: number): number {
  if (n <= 0) throw new Error(`--apiserver-count should be a positive number, but value '${n}' provided`);
  return n;
}

/** Upstream's KubeletConfig flags: address types must be known. */
function kubeletOptions(f: FlagValues): KubeletClientOptions {
  const types = f.list('kubelet-preferred-address-types');
  for (const t of types) {
    if (!nodeAddressTypes.includes(t)) throw new Error(`--kubelet-preferred-address-types: unknown address type "${t}"`);
  }
  return {
    preferredAddressTypes: types.length > 0 ? types : defaultPreferredAddressTypes,
    timeoutMs: f.duration('kubelet-timeout'),
    port: f.int('kubelet-port'),
    clientCertificateFile: f.string('kubelet-client-certificate'),
    clientKeyFile: f.string('kubelet-client-key'),
    certificateAuthorityFile: f.string('kubelet-certificate-authority'),
  };
}
