// kube-apiserver's aggregator flags: the client certificate presented to extension
// servers (--proxy-client-cert-file/--proxy-client-key-file) and whether to route to a
// Service's endpoints instead of its cluster IP (--enable-aggregator-routing); the flags
// are declared in pkg/server/options/misc.ts.

export interface AggregatorOptions {
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  enableAggregatorRouting: boolean;
}

export function parseAggregatorOptions(
  one: (n: string) => string | undefined, bool: (n: string) => boolean,
): AggregatorOptions {
  return {
    proxyClientCertFile: one('proxy-client-cert-file') || undefined,
    proxyClientKeyFile: one('proxy-client-key-file') || undefined,
    enableAggregatorRouting: bool('enable-aggregator-routing'),
  };
}
