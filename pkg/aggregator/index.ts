// The aggregation layer of one replica (upstream's kube-aggregator in front of
// kube-apiserver): the proxy to service-backed APIServices, discovery that includes
// them, and the availability controller (run by the elected replica). Every replica
// proxies and serves discovery from its own informers, so all follow etcd.
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { InformerFactory } from '../client/factory.js';
import type { Client } from '../client/interfaces.js';
import { informerLookup } from './apiservices.js';
import { AvailabilityController } from './availability.js';
import { aggregatedDiscoveryHandler } from './discovery-handler.js';
import type { AggregatorOptions } from './options.js';
import { registerAggregatorMetrics } from './metrics.js';
import type { OpenAPIExtensions } from '../openapi/extensions.js';
import { proxyHandler } from './proxy.js';
import { RemoteDiscovery } from './remote-discovery.js';
import { RemoteOpenAPI } from './remote-openapi.js';
import { serviceResolver } from './resolver.js';
import { checkTransport, loadProxyClientCert } from './transport.js';

export type { AggregatorOptions } from './options.js';
export { parseAggregatorOptions } from './options.js';

type PathHandler = (ctx: Koa.Context) => Promise<boolean>;

export interface AggregatorDeps {
  options: AggregatorOptions;
  informers: InformerFactory;
  /** The loopback client the availability controller writes status with. */
  client: Client;
  log: Logger;
  /** This replica's own URL once it listens (the `kubernetes` Service resolves to it). */
  self?: () => URL | undefined;
  /** Where the aggregator's metrics are registered (the process registry). */
  metricsRegistry?: Registry;
}

export interface Aggregator {
  /** Proxies requests of service-backed APIServices; first among the path handlers. */
  proxy: (ctx: Koa.Context) => boolean | Promise<boolean>;
  /** Wraps the local discovery handler with the aggregated APIs. */
  discovery(local: PathHandler): PathHandler;
  /** The extension servers' OpenAPI, for the OpenAPI handler to merge. */
  openapi: OpenAPIExtensions;
  /** Keeps APIService Available conditions; elected (kube-apiserver's own loops). */
  availability: AvailabilityController;
  start(): void;
  stop(): void;
}

export function buildAggregator(d: AggregatorDeps): Aggregator {
  const apiServicesInformer = d.informers.informerFor('apiregistration.k8s.io', 'apiservices');
  const services = d.informers.informerFor('', 'services');
  const endpoints = d.informers.informerFor('', 'endpoints');
  const apiServices = informerLookup(apiServicesInformer);
  const resolver = serviceResolver({
    service: (ns, name) => services.get(ns, name),
    endpoints: (ns, name) => endpoints.get(ns, name),
  }, { endpointRouting: d.options.enableAggregatorRouting, loopback: d.self });
  const clientCert = loadProxyClientCert(d.options);
  const log = d.log.child({ component: 'aggregator' });
  const remote = new RemoteDiscovery({ apiServices: apiServicesInformer, resolver, clientCert, log });
  const openapi = new RemoteOpenAPI({ apiServices: apiServicesInformer, resolver, clientCert, log });
  const metrics = d.metricsRegistry && registerAggregatorMetrics(d.metricsRegistry, () => apiServicesInformer.list());
  return {
    proxy: proxyHandler({ apiServices, resolver, clientCert, log }),
    discovery: (local) => aggregatedDiscoveryHandler(local, apiServices, remote),
    openapi,
    availability: new AvailabilityController({
      apiServices: apiServicesInformer, services, endpoints, resolver, log,
      client: d.client.resource('apiregistration.k8s.io', 'apiservices', 'v1'),
      checkTransport: checkTransport(clientCert, 5_000), onUnavailable: metrics?.markedUnavailable,
    }),
    start: () => { remote.start(); openapi.start(); },
    stop: () => { remote.stop(); openapi.stop(); },
  };
}
