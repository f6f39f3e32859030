// What admission costs on the write path: ConfigMap creates, one at a time, through a
// replica with admission disabled, through one with upstream's default plugin chain (no
// webhook configured for the namespace), and through the same chain with one no-op
// validating webhook matching the namespace; raw etcd3 puts of the same objects beside
// them. The figure that matters: the default chain costs at most 10% over none.
// Run: `node dist/hack/bench/admission.js [--creates=400]`.
import { defaultOnAdmissionPlugins } from '../../pkg/admission/ordered.js';
import { encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { startWebhookServer } from '../../test/harness/index.js';
import { arg, configMap, httpsClient, now, report, runMain, stats, withBenchCluster, type Row, type Stats } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['creates']);

const creates = arg('creates', 400);

async function timed(n: number, fn: (i: number) => Promise<void>): Promise<Stats> {
  for (let i = 0; i < 20; i++) await fn(-1 - i);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await fn(i);
    xs.push(now() - t0);
  }
  return stats(xs);
}

runMain(async () => {
  const webhook = await startWebhookServer();
  try {
    await withBenchCluster('admission', async ({ cluster, raw, prefix }) => {
      const creds = cluster.credentialsFor();
      const none = httpsClient(cluster.urls[0]!, creds, 1);
      const chain = httpsClient(cluster.urls[1]!, creds, 1);
      for (const ns of ['adm-none', 'adm-chain', 'adm-webhook']) {
        await chain.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { bench: ns } } });
      }
      const hook = await chain.call('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bench-noop' },
        webhooks: [{ name: 'noop.bench.example.com', clientConfig: { url: webhook.url('/noop'), caBundle: webhook.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { bench: 'adm-webhook' } },
          sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail' }],
      });
      if (hook.status !== 201) throw new Error(`webhook configuration: ${hook.status} ${hook.text}`);
      const create = (client: typeof none, ns: string) => async (i: number) => {
        const r = await client.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`cm-${i < 0 ? `w${-i}` : i}`, ns, 1024));
        if (r.status !== 201) throw new Error(`create in ${ns}: ${r.status} ${r.text}`);
      };
      // Until the configuration is seen, creates in adm-webhook do not call it.
      for (let i = 0; webhook.requestsTo('/noop').length === 0; i++) {
        if (i > 200) throw new Error('the webhook was never called');
        await create(chain, 'adm-webhook')(-1000 - i);
      }
      const oursNone = await timed(creates, create(none, 'adm-none'));
      const oursChain = await timed(creates, create(chain, 'adm-chain'));
      const oursWebhook = await timed(creates, create(chain, 'adm-webhook'));
      const etcd = await timed(creates, async (i) => {
        const obj = configMap(`cm-${i}`, 'raw', 1024);
        await raw.put(`${prefix}/configmaps/raw/cm-${i}`).value(encodeForStorage(obj, 'application/vnd.kubernetes.protobuf'));
      });
      none.close();
      chain.close();
      const rows: Row[] = [
        { measure: 'create p50, admission disabled', unit: 'ms', ours: oursNone.p50, etcd: etcd.p50 },
        { measure: 'create p50, default chain', unit: 'ms', ours: oursChain.p50, etcd: etcd.p50 },
        { measure: 'create p50, default chain + no-op webhook', unit: 'ms', ours: oursWebhook.p50, etcd: etcd.p50 },
        { measure: 'create p99, admission disabled', unit: 'ms', ours: oursNone.p99, etcd: etcd.p99 },
        { measure: 'create p99, default chain', unit: 'ms', ours: oursChain.p99, etcd: etcd.p99 },
        { measure: 'create p99, default chain + no-op webhook', unit: 'ms', ours: oursWebhook.p99, etcd: etcd.p99 },
        { measure: 'default chain / disabled (mean)', unit: 'x', ours: oursChain.mean / oursNone.mean },
        { measure: 'webhook adds, p50', unit: 'ms', ours: oursWebhook.p50 - oursChain.p50 },
        { measure: 'webhook adds, p99', unit: 'ms', ours: oursWebhook.p99 - oursChain.p99 },
      ];
      report('admission', `Admission on the create path (${creates} sequential ConfigMap creates each)`, rows);
    }, {
      // Replica 0 without admission, replica 1 with upstream's default chain.
      extraArgs: (i) => (i === 0 ? [`--disable-admission-plugins=${[...defaultOnAdmissionPlugins].join(',')}`] : []),
    });
  } finally {
    await webhook.stop();
  }
});
