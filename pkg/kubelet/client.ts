// How the apiserver reaches a node's kubelet (upstream: pkg/kubelet/client): the node's
// preferred address and kubelet port from its status, over TLS with the --kubelet-*
// credentials. Without --kubelet-certificate-authority the kubelet's serving certificate
// is not verified, as upstream's transport config does when it has no CA.
import { readFileSync } from 'node:fs';
import { plainError } from '../util/proxy/errors.js';
import type { TransportConfig } from '../util/proxy/transport.js';
import type { KubeObject } from '../runtime/object.js';
import { arr, obj, str } from '../apis/core/types.js';

export interface KubeletClientOptions {
  /** --kubelet-preferred-address-types */
  preferredAddressTypes: string[];
  /** --kubelet-timeout: bounds dialling the kubelet. */
  timeoutMs: number;
  /** --kubelet-port: used when a node does not report its kubelet endpoint port. */
  port: number;
  clientCertificateFile?: string;
  clientKeyFile?: string;
  certificateAuthorityFile?: string;
}

export const defaultPreferredAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

export interface ConnectionInfo {
  scheme: 'https';
  hostname: string;
  port: string;
  transport: TransportConfig;
  /** The same credentials without verifying the kubelet (pods/log?insecureSkipTLSVerifyBackend). */
  insecureTransport: TransportConfig;
}

export type NodeGetter = (name: string) => Promise<KubeObject>;

export class KubeletClient {
  readonly transport: TransportConfig;
  readonly insecureTransport: TransportConfig;
  /** For pods and services (upstream's proxy transport): TLS without verification or client cert. */
  readonly proxyTransport: TransportConfig;

  constructor(readonly opts: KubeletClientOptions) {
    const read = (f?: string) => (f ? readFileSync(f, 'utf8') : undefined);
    const cert = read(opts.clientCertificateFile);
    const key = read(opts.clientKeyFile);
    const ca = read(opts.certificateAuthorityFile);
    this.transport = { cert, key, ca, rejectUnauthorized: ca !== undefined, connectTimeoutMs: opts.timeoutMs };
    this.insecureTransport = { cert, key, rejectUnauthorized: false, connectTimeoutMs: opts.timeoutMs };
    this.proxyTransport = { rejectUnauthorized: false, connectTimeoutMs: opts.timeoutMs };
  }

  async connectionInfo(getNode: NodeGetter, nodeName: string): Promise<ConnectionInfo> {
    const node = await getNode(nodeName);
    const status = obj(node.status) ?? {};
    const hostname = preferredNodeAddress(arr(status.addresses), this.opts.preferredAddressTypes);
    const reported = Number(obj(obj(status.daemonEndpoints)?.kubeletEndpoint)?.Port ?? 0);
    const port = reported > 0 ? reported : this.opts.port;
    return { scheme: 'https', hostname, port: String(port), transport: this.transport, insecureTransport: this.insecureTransport };
  }
}

/** The first address of the first preferred type the node reports (upstream's GetPreferredNodeAddress). */
export function preferredNodeAddress(addresses: Record<string, unknown>[], preferred: string[]): string {
  for (const t of preferred) {
    const a = addresses.find((x) => str(x.type) === t);
    if (a) return str(a.address);
  }
  // Upstream returns a plain error here, which reaches the client as a 500 with no reason.
  const known = addresses.map((a) => `{${str(a.type)} ${str(a.address)}}`).join(' ');
  throw plainError(`no preferred addresses found; known addresses: [${known}]`);
}
