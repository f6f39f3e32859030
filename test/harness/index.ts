// The test harness: a shared etcd, real server replicas, kubectl and an HTTPS client.
export { startTestEtcd, testEtcdEndpoint, testEtcdClient, type TestEtcd } from './etcd.js';
export { uniquePrefix } from './prefix.js';
export { deleteRevisionWithin } from './revisions.js';
export { freePort, freePorts } from './ports.js';
export { serverNodeArgs, startReplicas, type Cluster, type Replica, type ReplicaOptions } from './apiserver.js';
export { createTestPki, createFrontProxyPki, frontProxyArgs, admin, type FrontProxyPki, type TestPki, type TestPkiOptions, type ClientUser, type TokenUser, type IssuedCert } from './pki.js';
export { kubeconfigYaml, writeKubeconfig, type KubeconfigSpec, type KubeconfigUser } from './kubeconfig.js';
export { kubectl, kubectlBinary, kubectlOn, kubectlStream, kubectlVersions, type KubectlProcess, type KubectlOptions, type KubectlResult, type KubectlVersion } from './kubectl.js';
export { request, watch, HttpError, type RequestOptions, type HttpResponse, type TlsCredentials, type WatchEvent, type WatchStream } from './http.js';
export { connectH2, h2Request, h2Watch } from './http2.js';
export { dumpLogs, registerLog, unregisterLog, tailOf } from './failure-logs.js';
export { spawnTracked, type Tracked } from './processes.js';
export { eventually, until } from './poll.js';
export { startHAProxy, type HAProxy } from './haproxy.js';
export { startWebhookServer, type WebhookServer, type WebhookServerOptions, type WebhookReply, type WebhookHandler, type RecordedReview, type AdmissionRequestBody } from './webhook-server.js';
export { startConversionWebhook, convertHostPort, type ConversionWebhook, type ConversionWebhookOptions, type ConversionFault } from './conversion-webhook.js';
export { startExtensionServer, wardleGroup, wardleVersion, type ExtensionServer, type ExtensionServerOptions, type ExtensionRequest } from './extension-server.js';
export { readAuditLog } from './audit-log.js';
