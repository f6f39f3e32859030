// How the proxy reaches a backend (kubelet, pod, service, extension server): TLS
// material and timeouts, set by whoever owns the backend.
/** TLS settings for one kind of backend connection. */
export interface TransportConfig {
  cert?: string;
  key?: string;
  ca?: string;
  rejectUnauthorized: boolean;
  connectTimeoutMs: number;
  /** TLS server name (SNI and the name verified); default the URL's host unless it is an IP. */
  serverName?: string;
}
