// Runs one replica: storage, registry, authentication, authorization, the app, TLS.
// Replicas share nothing but etcd.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createLogger } from '../endpoints/filters/logging.js';
import { installCheapAsyncResourceBind } from '../util/async-resource-bind.js';
import { installFastLongToString } from '../util/long-to-string.js';
import { setUndecodableLogger } from '../storage/etcd/undecodable.js';
import { setManagedFieldsFailureLogger } from '../registry/generic/managedfields/failure-log.js';
import { legacyKeyMoves, migrateKeyPrefixes } from '../storage/etcd/migrate-keys.js';
import { createDiscoveryHandler } from '../endpoints/discovery/index.js';
import { setMinRequestTimeout } from '../endpoints/handlers/watch.js';
import { buildScheme } from '../registry/index.js';
import { bindServiceAllocation } from '../registry/core/services/allocator/index.js';
import { AllocationRepair } from '../registry/core/services/allocator/repair.js';
import { allocationRepairController } from '../controller/serviceallocation/repair.js';
import { StoreRegistry } from '../registry/generic/registry.js';
import { ensureClientCA, writeAdminKubeconfig } from './admin-kubeconfig.js';
import { buildFlowControl } from './flowcontrol.js';
import { buildAuditor } from '../audit/auditor.js';
import { apiserverMetrics } from '../endpoints/metrics/metrics.js';
import { createApp, loadWebGlobals, type PathHandler } from './app.js';
import { ServerLifecycle } from '../endpoints/request/lifecycle.js';
import { requestHandler } from '../endpoints/respond.js';
import { listen } from './listener.js';
import { bookmarkObserver, startStorageObjectCounter, storedResources, type StorageObjectCounter } from './storage-metrics.js';
import { registerStorageSizeMetric, startDBSizePoller } from './etcd-metrics.js';
import { setProgressObserver } from '../storage/etcd/progress.js';
import { buildStorage, waitForEtcd } from './storage.js';
import { etcdHealthChecks } from './etcd-health.js';
import { ensureLocalAPIServices, ensureSystemNamespaces, ensureSystemPriorityClasses } from './bootstrap.js';
import { resetFeatureGates } from '../features/gates.js';
import type { ServerOptions } from './options.js';
import { servingCerts } from './serving-certs.js';
import { addEncryptionHealthChecks, startEncryption } from './encryption.js';
import { extraEndpoints } from './endpoints.js';
import { InformerFactory } from '../client/factory.js';
import { LoopbackTokens, loopbackClient, type RequestListener } from '../client/loopback.js';
import { apiserverUser, controllerUser, kubeControllerManagerUser } from '../client/identities.js';
import { kubernetesUserAgent } from '../version/index.js';
import { rootCA } from './root-ca.js';
import { ControllerManager } from '../controller/manager.js';
import { registerControllers } from '../controller/index.js';
import { crdRegistrationController, crdStatusController } from '../controller/apiextensions/index.js';
import { serveCustomResources } from './customresources.js';
import { KubernetesServiceController } from '../controller/kubernetesservice/index.js';
import { advertiseAddress } from './advertise.js';
import { apfConfigController } from '../controller/apf/index.js';
import { LeaseLock } from '../controller/leaselock.js';
import { buildAdmission } from './admission.js';
import { buildAuthenticator, serviceAccountIssuerDiscovery } from './authentication.js';
import { buildAuthorization } from './authorization.js';
import { bindAccessReviews } from '../registry/authorization/index.js';
import { bindResourceAccessReviews } from '../registry/openshiftauthorization/index.js';
import { bindObjectHistories } from '../registry/history/index.js';
import { shadowFilters } from './shadow/index.js';
import { bindComponentStatuses } from '../registry/core/componentstatuses/index.js';
import { reconcileBootstrapPolicy } from '../bootstrappolicy/reconcile.js';
import type { ServerDeps } from './deps.js';
import { KubeletClient } from '../kubelet/client.js';
import { buildAggregator } from '../aggregator/index.js';
import { createOpenAPIHandler } from '../openapi/handler.js';
import { registryClient } from './registry-client.js';
import { preparedBootstrapObject } from './bootstrap-objects.js';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** How long after ready the controllers, the apiserver loops, Koa's web globals and the object counter start (see runServer). */
const backgroundStartDelayMs = 100;

/** The post-start hooks, registered before the replica listens: /readyz fails on each until its step is done. */
function postStartHooks(o: ServerOptions): string[] {
  return [
    'start-kube-apiserver-admission-initializer', 'generic-apiserver-start-informers', 'crd-informer-synced', 'start-apiextensions-controllers',
    ...(o.enablePriorityAndFairness ? ['priority-and-fairness-config-consumer', 'priority-and-fairness-filter'] : []),
    'start-system-namespaces-controller', 'scheduling/bootstrap-system-priority-classes', 'kube-apiserver-autoregistration', 'rbac/bootstrap-roles',
    'bootstrap-controller',
  ];
}

/**
 * `signal`: aborting it while etcd has not answered yet ends the start (a SIGTERM then):
 * the listener closes and the promise rejects with StartupAborted.
 */
export async function runServer(o: ServerOptions, log: Logger = createLogger(o.logLevel, undefined, o.loggingFormat), signal?: AbortSignal): Promise<RunningServer> {
  installCheapAsyncResourceBind();
  installFastLongToString();
  for (const warning of resetFeatureGates(o.featureGates).settingsToWarnAbout()) log.warn(warning);
  setMinRequestTimeout(o.minRequestTimeoutSeconds);
  apiserverMetrics().showHiddenMetricsFor(o.showHiddenMetricsForVersion);
  for (const f of o.ignoredFlags) log.warn({ flag: `--${f}` }, 'flag accepted but not implemented; ignoring');

  const scheme = buildScheme({ runtimeConfig: o.runtimeConfig });
  const encryption = await startEncryption(o, scheme, log);
  const layer = await buildStorage(o, scheme, log, encryption);
  const { client, storage, endpoints } = layer;
  const stored = storedResources(scheme, o.etcdPrefix);
  setProgressObserver(bookmarkObserver(stored));
  setUndecodableLogger((key, reason) => log.error({ key, reason }, 'unable to decode a value stored in etcd'));
  setManagedFieldsFailureLogger((f) => log.error(f, 'failed to update managedFields; the object is written without them'));
  const registry = new StoreRegistry(scheme, storage, o.etcdPrefix, { ttlSeconds: { events: o.eventTTLSeconds }, deleteCollectionWorkers: o.deleteCollectionWorkers });

  const certs = await servingCerts(o);
  let clientCAFile = o.clientCAFile;
  if (!clientCAFile && o.writeAdminKubeconfig) clientCAFile = await ensureClientCA(o.certDir);

  const informers = new InformerFactory(registry);
  const deps: ServerDeps = { o, log, client, storage, scheme, registry, informers, clientCAFile, servingCert: certs };
  const etcdChecks = etcdHealthChecks(layer.clusters, o.etcdPrefix, { healthMs: o.etcdHealthcheckTimeoutMs, readyMs: o.etcdReadycheckTimeoutMs });
  const extra = extraEndpoints({ scheme, etcdChecks, log, o, informers });
  addEncryptionHealthChecks(extra.health, encryption);
  // Each start step under upstream's post-start hook name, so /readyz?verbose and
  // /livez?verbose list them as kube-apiserver's do.
  const hooks = new Map(postStartHooks(o).map((name) => [name, extra.health.addPostStartHook(name)]));
  const hooked = async <T>(name: string, step: () => Promise<T> | T): Promise<T> => {
    const result = await step();
    hooks.get(name)!.done();
    return result;
  };
  const listener = await listen(o, certs, extra.healthHandler);
  log.info({ url: listener.url }, 'serving securely');
  try {
    await waitForEtcd(layer, log, signal);
  } catch (err) {
    await listener.close();
    encryption?.stop();
    await layer.stop();
    throw err;
  }
  const dbSizePoller = startDBSizePoller(layer.clusters.flatMap((c) => c.connection.endpoints), o.etcdTLS, o.etcdDBMetricPollIntervalMs, log);
  const storageSize = registerStorageSizeMetric(layer.clusters.map((c) => c.connection.endpoints), o.etcdTLS);
  const serviceAllocators = bindServiceAllocation(scheme, {
    client, etcdPrefix: o.etcdPrefix, serviceClusterIPRange: o.serviceClusterIPRange, serviceNodePortRange: o.serviceNodePortRange,
  }, log);
  const loopbackTokens = new LoopbackTokens();
  const authenticator = loopbackTokens.authenticator(await buildAuthenticator(deps));
  const authz = await buildAuthorization(deps);
  const authorizer = authz.authorizer;
  deps.authorizer = authorizer;
  bindAccessReviews(scheme, authz);
  bindResourceAccessReviews(scheme, authz.subjectLocator);
  bindObjectHistories(scheme, { registry, authorizer, storage: layer.clusters[0]!.etcd });
  // One etcd-<i> per overridden resource: upstream keeps overrides by group/resource, a later entry replacing an earlier one.
  const overrideServers = [...new Map(o.etcdServersOverrides.map((ov) => [`${ov.group}/${ov.resource}`, ov.servers])).values()];
  bindComponentStatuses(scheme, endpoints, o.etcdPrefix, o.etcdTLS, overrideServers);
  const admission = authz.guard(await hooked('start-kube-apiserver-admission-initializer', () => buildAdmission(deps)));

  const { moved, refused } = await migrateKeyPrefixes(client, legacyKeyMoves(scheme.storedResources(), o.etcdPrefix), encryption);
  if (moved > 0) log.info({ moved }, 'moved objects from group-qualified etcd keys to upstream\'s key layout');
  for (const r of refused) log.error(r, 'left an object under its group-qualified etcd key, where it is not served');
  serveCustomResources({
    scheme, registry, informers, log, metricsRegistry: apiserverMetrics().registry, etcdPrefix: o.etcdPrefix,
    cache: layer.cache,
  });
  await hooked('generic-apiserver-start-informers', () => informers.start());
  const crdSynced = hooks.get('crd-informer-synced')!;
  void informers.informerFor('apiextensions.k8s.io', 'customresourcedefinitions').waitForSync().then(() => crdSynced.done());
  const identity = `${hostname()}_${randomUUID()}`;
  // Controllers (and the leader Lease) act only once elected, and their requests wait for the app regardless.
  let setHandler!: (h: RequestListener) => void;
  const loopback = {
    tokens: loopbackTokens,
    preferredVersion: (group: string, resource: string) => scheme.resourceInGroup(group, resource)?.version,
    handler: new Promise<RequestListener>((resolve) => { setHandler = resolve; }),
  };
  const kubeControllerManagerClient = (name: string) =>
    loopbackClient(loopback, { user: kubeControllerManagerUser, userAgent: `${kubernetesUserAgent('kube-controller-manager')}/${name}` });
  // kube-controller-manager's informers: not the apiserver's, so not in informer-sync.
  const controllerInformers = informers.controllerView();
  // The elections' keys: <prefix>/election/<name>/<lease>, inside --etcd-prefix.
  const elections = client.namespace(`${o.etcdPrefix}/`);
  const controllers = new ControllerManager({
    client: elections, electionName: 'controller-manager-leader', identity, log,
    lease: new LeaseLock(kubeControllerManagerClient('leader-election').resource('coordination.k8s.io', 'leases', 'v1'), identity),
    informers: controllerInformers,
  });
  registerControllers(controllers, {
    client: (sa) => loopbackClient(loopback, { user: controllerUser(sa), userAgent: `${kubernetesUserAgent('kube-controller-manager')}/${sa}` }),
    rootClient: kubeControllerManagerClient,
    informers: controllerInformers, scheme, log, o, rootCA: () => rootCA(deps), authorizer,
  });
  // kube-apiserver's own loops (upstream runs them in every apiserver): elected among the
  // replicas, but never gated by the kube-controller-manager Lease, so they keep running
  // when an upstream kube-controller-manager holds it.
  const apiserverLoops = new ControllerManager({
    client: elections, electionName: 'apiserver-loops-leader', identity, log, subject: 'apiserver loops',
  });
  // apiextensions-apiserver's naming and establishing controller.
  const apiserverClient = loopbackClient(loopback, { user: apiserverUser, userAgent: kubernetesUserAgent('kube-apiserver') });
  const crdStatus = await hooked('start-apiextensions-controllers', () => crdStatusController({ scheme, informers, log, client: apiserverClient }));
  if (crdStatus) apiserverLoops.register(crdStatus);
  const crdRegistration = crdRegistrationController({ scheme, informers, log, client: apiserverClient });
  if (crdRegistration) apiserverLoops.register(crdRegistration);
  const services = registry.store('', 'services');
  apiserverLoops.register(allocationRepairController(new AllocationRepair(async () => {
    const list = await services.list('', {});
    return { items: list.items, resourceVersion: list.metadata.resourceVersion ?? '' };
  }, serviceAllocators, log), log));
  // Upstream's APF configuration post-start hook.
  if (o.enablePriorityAndFairness) apiserverLoops.register(apfConfigController({ informers, log, client: apiserverClient }));
  // kube-aggregator: proxy and discovery in every replica, the availability controller elected.
  let selfURL: URL | undefined;
  const aggregator = buildAggregator({
    options: o.aggregator, informers, client: apiserverClient, log, self: () => selfURL, metricsRegistry: apiserverMetrics().registry,
  });
  apiserverLoops.register(aggregator.availability);
  aggregator.start();

  const publicIP = advertiseAddress(o.advertiseAddress, o.bindAddress);
  if (!o.advertiseAddress) log.info({ address: publicIP }, 'external host was not specified, using this address');

  const pathHandlers: PathHandler[] = [
    ...extra.pathHandlers, createOpenAPIHandler(scheme, { extensions: aggregator.openapi }), ...serviceAccountIssuerDiscovery(deps),
    aggregator.proxy, aggregator.discovery(createDiscoveryHandler(scheme)),
  ];
  const connect = { kubelet: new KubeletClient(o.kubelet), readStored: (key: string) => storage.get(`${o.etcdPrefix}/${key}`) };
  const auditor = buildAuditor(o.audit, apiserverMetrics().registry, log);
  // APF estimates list work from the stored object counts, counted once bootstrap is done.
  let objectCounter: StorageObjectCounter | undefined;
  const flow = buildFlowControl(o, informers, apiserverMetrics().registry, (resource) => objectCounter?.count(resource));
  if (flow.debug) pathHandlers.unshift(flow.debug);
  if (o.enablePriorityAndFairness) for (const name of ['priority-and-fairness-config-consumer', 'priority-and-fairness-filter']) hooks.get(name)!.done();
  const lifecycle = new ServerLifecycle();
  const app = createApp({
    log, outerFilters: [...shadowFilters(o, log, apiserverMetrics().registry), ...extra.outerFilters], authenticator, authorizer, admission, auditor, flowControl: flow.filter, registry, pathHandlers, resourcePathHandlers: [aggregator.proxy], connect,
    lifecycle, shutdownSendRetryAfter: o.shutdownSendRetryAfter, goawayChance: o.goawayChance,
    limits: { requestTimeoutMs: o.requestTimeoutMs, maxRequestBodyBytes: o.maxRequestBodyBytes },
  });

  const handle = requestHandler(app, log);
  setHandler(handle);
  const bootstrapClient = auditor ? apiserverClient : registryClient({
    registry, admission, user: apiserverUser, userAgent: kubernetesUserAgent('kube-apiserver'), fallback: apiserverClient,
    prepared: preparedBootstrapObject,
  });
  // Upstream's bootstrap controller, a readiness step too: its writes go the same way.
  const kubernetesService = new KubernetesServiceController({
    api: bootstrapClient, client, log, etcdPrefix: o.etcdPrefix, storageMediaType: o.storageMediaType, serviceClusterIPRange: o.serviceClusterIPRange,
    advertiseAddress: publicIP, reconcilerType: o.endpointReconcilerType, apiserverCount: o.apiserverCount,
    leaseTTLMs: o.endpointReconcilerLeaseTTLMs, intervalMs: o.endpointReconcilerIntervalMs,
  });
  // Upstream's post-start hooks, written before the replica listens, so the first client
  // already finds them; controllers start after them (RBAC needs the policy). Straight to
  // the store and its admission (registry-client.ts), through the app when auditing.
  await hooked('start-system-namespaces-controller', () => ensureSystemNamespaces(bootstrapClient));
  // Independent of one another once the namespaces exist: side by side, as upstream runs
  // each post-start hook on its own goroutine; the bootstrap controller's first writes
  // (the `kubernetes` Service in `default`, its endpoints) only need the namespaces too.
  // Its hook, the last readiness step, is marked done once the app serves.
  const bootstrapController = kubernetesService.start(listener.port);
  await Promise.all([
    hooked('scheduling/bootstrap-system-priority-classes', () => ensureSystemPriorityClasses(bootstrapClient)),
    hooked('kube-apiserver-autoregistration', () => ensureLocalAPIServices(bootstrapClient, scheme)),
    hooked('rbac/bootstrap-roles', () => reconcileBootstrapPolicy(bootstrapClient, log)),
    bootstrapController,
  ]);
  listener.serve(handle);
  const { url } = listener;
  selfURL = new URL(url);
  await hooked('bootstrap-controller', () => bootstrapController);
  // A moment after ready: none of them is a readiness step, and on a fresh etcd their
  // first round (elections, the controllers' informers' lists, the first objects they
  // write, Koa's web globals) came between the last hook and the answer to the probe
  // waiting for readiness. /readyz stays 200 meanwhile: the controllers' informers are not
  // in informer-sync and list only once this replica leads (the apiserver loops' are the
  // apiserver's own, synced before ready).
  const background = setTimeout(() => {
    controllers.start();
    apiserverLoops.start();
    loadWebGlobals();
    // Counted once the bootstrap objects exist (one count-only range per resource).
    objectCounter = startStorageObjectCounter(layer.clientFor, stored, apiserverMetrics().storageObjects, log, o.etcdCountMetricPollPeriodMs);
  }, backgroundStartDelayMs);
  if (o.writeAdminKubeconfig) {
    const servingCA = certs.caFile ? readFileSync(certs.caFile, 'utf8') : certs.cert;
    await writeAdminKubeconfig(o.writeAdminKubeconfig, o.certDir, url, servingCA);
    log.info({ kubeconfig: o.writeAdminKubeconfig }, 'wrote admin kubeconfig');
  }

  return {
    url,
    async stop() {
      // Upstream's order: readyz fails at once and load balancers take the replica out
      // while it still serves; after --shutdown-delay-duration it stops taking requests,
      // gives up its endpoint, drains what is in flight, then ends watches cleanly.
      clearTimeout(background);
      lifecycle.initiateShutdown();
      extra.beginShutdown();
      log.info({ delayMs: o.shutdownDelayMs }, 'shutdown initiated; readyz fails from now on');
      if (o.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, o.shutdownDelayMs));
      lifecycle.stopAcceptingNewRequests();
      // With --shutdown-send-retry-after the listener stays open to answer 429s until drained.
      // Closing it sends every HTTP/2 session a GOAWAY, as Go's Shutdown does.
      const closeListener = () => listener.close();
      let closed = o.shutdownSendRetryAfter ? undefined : closeListener();
      await kubernetesService.stop();
      const drained = await lifecycle.drainRequests(o.requestTimeoutMs);
      closed ??= closeListener();
      log.info({ drained, inflight: lifecycle.inflightRequests, watches: lifecycle.activeWatches }, 'in-flight requests drained; ending watches');
      await lifecycle.terminateWatches(o.shutdownWatchTerminationGracePeriodMs);
      // Ended streams flush their last bytes before their connections go.
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
      listener.closeAllConnections();
      await controllers.stop();
      await apiserverLoops.stop();
      aggregator.stop();
      informers.stop();
      extra.stop();
      encryption?.stop();
      objectCounter?.stop();
      dbSizePoller.stop();
      storageSize.stop();
      await closed;
      // Events of requests answered before the close are flushed, not dropped.
      await auditor?.shutdown();
      await layer.stop();
    },
  };
}

