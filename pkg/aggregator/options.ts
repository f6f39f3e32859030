// kube-apiserver's aggregator flags: the client certificate presented to extension
// servers (--proxy-client-cert-file/--proxy-client-key-file) and whether to route to a
// Service's endpoints instead of its cluster IP (--enable-aggregator-routing).
import type { FlagSpec } from '../server/flags.js';

export interface AggregatorOptions {
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  enableAggregatorRouting: boolean;
}

export const aggregatorFlagSpecs: Record<string, FlagSpec> = {
  'proxy-client-cert-file': { type: 'string' },
  'proxy-client-key-file': { type: 'string' },
  'enable-aggregator-routing': { type: 'bool' },
};

export function parseAggregatorOptions(
  one: (n: string) => string | undefined, bool: (n: string, def: boolean) => boolean,
): AggregatorOptions {
  return {
    proxyClientCertFile: one('proxy-client-cert-file') || undefined,
    proxyClientKeyFile: one('proxy-client-key-file') || undefined,
    enableAggregatorRouting: bool('enable-aggregator-routing', false),
  };
}
