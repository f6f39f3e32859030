// The etcd client of one etcd cluster (--etcd-servers, or one --etcd-servers-overrides
// entry): etcd3's client, with our channel credentials for its https:// members.
import { Etcd3, type IOptions } from 'etcd3';
import type { ChannelCredentials } from '@grpc/grpc-js';
import { withoutCallerStack } from './caller-stack.js';
import { EtcdChannelCredentials } from './tls/credentials.js';
import { hasTLSFiles, ReloadingTLSFiles, type EtcdTLSFiles } from './tls/files.js';
import { HandshakeStatus, type HandshakeLog } from './tls/handshakes.js';
import { memberFaultHandling } from './member-breaker.js';
import { retryReads } from './retry.js';
import { noop } from 'cockatiel';

export interface EtcdClientConfig {
  /** Client URLs, http:// or https://. */
  endpoints: string[];
  tls: EtcdTLSFiles;
  /** etcd3's other options (call deadlines, fault handling). */
  options?: Omit<IOptions, 'hosts' | 'credentials'>;
}

export interface EtcdConnection {
  client: Etcd3;
  endpoints: string[];
  /** Failed TLS handshakes by member, for health checks. */
  handshakes: HandshakeStatus;
  close(): void;
}

/**
 * HTTP/2 flow-control window for each etcd stream and the connection: how much etcd may
 * send before this process has read it. grpc-js keeps HTTP/2's 64 KiB unless told, so a
 * watch of a busy resource delivered at most 64 KiB per turn of a loaded event loop and
 * fell seconds behind etcd (a replica's pods cache 2-25 s behind its own writes at 100
 * nodes on a busy machine, against 1-63 ms with this window, the same minutes).
 * upstream's client is grpc-go, whose BDP estimator grows both windows up to 16 MiB
 * (transport/bdp_estimator.go, bdpLimit).
 */
export const etcdFlowControlWindow = 16 * 1024 * 1024;

/**
 * HTTP/2 keepalive pings on each etcd connection while calls are open: a connection whose
 * socket had closed was at times still taken for open by grpc-js (no close event; its
 * maintainers advise keepalive for this), and every call on it waited for its deadline. A
 * replica's /readyz said "context deadline exceeded" for 30 s after an etcd restart, with
 * no connection to etcd left (`ss`); the next ping found the socket gone at once and the
 * channel reconnected. Upstream's etcd client pings every 30 s (timeout 10 s); 10 s here
 * bounds that outage to seconds, and is above etcd's --grpc-keepalive-min-time (5 s).
 */
const keepaliveMs = 10_000;

/** etcd3's per-member state that holds the channel credentials (its Host class). */
interface EtcdHost { host: string; channelCredentials: ChannelCredentials }

/**
 * Reads the TLS files now (a bad file throws EtcdTLSFileError naming flag and file) and
 * makes the client. Files are re-read on change for every new connection.
 */
export function createEtcdClient(cfg: EtcdClientConfig, log: HandshakeLog): EtcdConnection {
  const handshakes = new HandshakeStatus(log);
  const secure = cfg.endpoints.some((e) => e.startsWith('https://'));
  // Upstream reads the files whenever a flag is set, even for http:// members.
  const files = secure || hasTLSFiles(cfg.tls) ? new ReloadingTLSFiles(cfg.tls, (err) => {
    if (err) log.warn({ err: err.message }, 'renewed etcd TLS files could not be loaded; keeping the previous ones');
    else log.info({ ...cfg.tls }, 'loaded renewed etcd TLS files for new connections');
  }) : undefined;
  // Without a scheme etcd3 makes plain channels (and does not refuse a mix of http and
  // https members, which upstream's client allows); https members get ours below.
  const client = new Etcd3({
    ...cfg.options,
    grpcOptions: {
      'grpc-node.flow_control_window': etcdFlowControlWindow,
      'grpc.keepalive_time_ms': keepaliveMs,
      'grpc.keepalive_timeout_ms': 10_000,
      interceptors: [withoutCallerStack],
      ...cfg.options?.grpcOptions,
    },
    // No global retry: etcd3's would send writes again too (retry.ts); reads are retried below.
    faultHandling: { ...memberFaultHandling(cfg.endpoints), global: noop, ...cfg.options?.faultHandling },
    hosts: cfg.endpoints.map((e) => e.replace(/^https?:\/\//, '')),
  });
  retryReads(client);
  if (files && secure) {
    const hosts = (client as unknown as { pool?: { hosts?: EtcdHost[] } }).pool?.hosts;
    if (!hosts || hosts.length !== cfg.endpoints.length || !hosts.every((h) => 'channelCredentials' in h)) {
      client.close();
      throw new Error('this etcd3 version keeps its connections differently: cannot give it TLS credentials');
    }
    cfg.endpoints.forEach((endpoint, i) => {
      if (endpoint.startsWith('https://')) hosts[i]!.channelCredentials = new EtcdChannelCredentials(endpoint, files, handshakes);
    });
  }
  return { client, endpoints: cfg.endpoints, handshakes, close: () => client.close() };
}
