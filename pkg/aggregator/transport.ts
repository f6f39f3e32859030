// How the aggregator dials an extension server (upstream's proxy transport per
// APIService): TLS verified against the APIService's caBundle for the name
// <service>.<namespace>.svc, or not verified with insecureSkipTLSVerify, presenting the
// proxy client certificate when one is configured.
import { readFileSync } from 'node:fs';
import type { TransportConfig } from '../util/proxy/transport.js';
import type { APIServiceSpec } from './apiservice.js';
import type { AggregatorOptions } from './options.js';

export interface ProxyClientCert {
  cert: string;
  key: string;
}

/** The proxy client certificate, when both files are given (upstream ignores one alone). */
export function loadProxyClientCert(o: AggregatorOptions): ProxyClientCert | undefined {
  if (!o.proxyClientCertFile || !o.proxyClientKeyFile) return undefined;
  return { cert: readFileSync(o.proxyClientCertFile, 'utf8'), key: readFileSync(o.proxyClientKeyFile, 'utf8') };
}

/** Upstream dials extension servers with a 30 s dial timeout. */
const dialTimeoutMs = 30_000;

export function serviceTransport(spec: APIServiceSpec, client: ProxyClientCert | undefined): TransportConfig {
  const svc = spec.service;
  return {
    ...(client ?? {}),
    ca: spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined,
    rejectUnauthorized: !spec.insecureSkipTLSVerify,
    connectTimeoutMs: dialTimeoutMs,
    serverName: svc ? `${svc.name}.${svc.namespace}.svc` : undefined,
  };
}

/** The availability check's transport: never verifies the server (upstream: Insecure). */
export function checkTransport(client: ProxyClientCert | undefined, timeoutMs: number): TransportConfig {
  return { ...(client ?? {}), rejectUnauthorized: false, connectTimeoutMs: timeoutMs };
}
