// The audit webhook backend (--audit-webhook-config-file): EventLists POSTed over TLS to
// the kubeconfig's server, in batch mode (requests never wait; a batch leaves at
// --audit-webhook-batch-max-wait or on shutdown) and in blocking mode (the event is
// delivered before the response), with the legacy log format alongside.
import { expect } from 'chai';
import { createServer, type Server } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCA, issueCertificate } from '../../pkg/util/cert/index.js';
import { request, startReplicas, type Cluster } from '../harness/index.js';

interface EventList { kind: string; apiVersion: string; items: Array<{ auditID: string; stage: string; verb: string }> }

describe('audit webhook backend (--audit-webhook-config-file)', function () {
  this.timeout(120_000);
  let dir: string;
  let server: Server;
  const lists: EventList[] = [];
  let authHeaders: string[] = [];
  const received = (id: string) => lists.flatMap((l) => l.items).filter((e) => e.auditID === id);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-wh-'));
    const ca = await generateCA('audit-sink-ca');
    const serving = await issueCertificate(ca, { cn: '127.0.0.1', usage: 'server', ipAddresses: ['127.0.0.1'] });
    server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        authHeaders.push(String(req.headers.authorization));
        lists.push(JSON.parse(Buffer.concat(chunks).toString()) as EventList);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    writeFileSync(join(dir, 'sink.kubeconfig'), [
      'apiVersion: v1', 'kind: Config', 'current-context: sink',
      'clusters:', '- name: sink', '  cluster:', `    server: https://127.0.0.1:${port}/audit`,
      `    certificate-authority-data: ${Buffer.from(ca.cert).toString('base64')}`,
      'users:', '- name: apiserver', '  user:', '    token: sink-token',
      'contexts:', '- name: sink', '  context: {cluster: sink, user: apiserver}',
    ].join('\n'));
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: None\n  nonResourceURLs: ["/readyz*", "/healthz*", "/livez*"]\n- level: Metadata\n');
  });
  after(async () => {
    await new Promise<void>((r) => server?.close(() => r()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const start = (mode: string, extra: string[] = []): Promise<Cluster> => startReplicas(1, {
    extraArgs: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-webhook-config-file=${join(dir, 'sink.kubeconfig')}`,
      `--audit-webhook-mode=${mode}`, ...extra],
  });

  it('batch mode: answers at once and sends an EventList within max-wait; the legacy log line is written alongside', async () => {
    const cluster = await start('batch', ['--audit-webhook-batch-max-wait=300ms', `--audit-log-path=${join(dir, 'legacy.log')}`, '--audit-log-format=legacy']);
    try {
      const r = await request(`${cluster.urls[0]}/api/v1/namespaces`, cluster.credentialsFor());
      expect(r.status).to.equal(200);
      const id = String(r.headers['audit-id']);
      for (let i = 0; i < 60 && received(id).length === 0; i++) await new Promise((res) => setTimeout(res, 50));
      expect(received(id).map((e) => e.stage)).to.deep.equal(['ResponseComplete']);
      expect(lists[0]).to.include({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1' });
      expect(authHeaders[0]).to.equal('Bearer sink-token');
      const legacy = readFileSync(join(dir, 'legacy.log'), 'utf8');
      expect(legacy).to.match(new RegExp(`^\\S+ AUDIT: id="${id}" stage="ResponseComplete" ip="127.0.0.1" method="list" user="admin" groups="\\\\"system:masters\\\\",\\\\"system:authenticated\\\\"" as="<self>" asgroups="<lookup>" user-agent="[^"]*" namespace="<none>" uri="/api/v1/namespaces" response="200"$`, 'm'));
    } finally {
      await cluster.stop();
    }
  });

  it('batch mode: events still buffered (long max-wait) reach the sink when the replica stops', async () => {
    // A batch large enough that the server's own start-up requests (bootstrap policy,
    // controllers) do not fill it and flush it early.
    const cluster = await start('batch', ['--audit-webhook-batch-max-wait=60s', '--audit-webhook-batch-max-size=100000']);
    const r = await request(`${cluster.urls[0]}/version`, cluster.credentialsFor());
    const id = String(r.headers['audit-id']);
    await new Promise((res) => setTimeout(res, 300));
    expect(received(id)).to.deep.equal([]);
    await cluster.stop();
    expect(received(id).map((e) => e.verb)).to.deep.equal(['get']);
  });

  it('blocking mode: the event is delivered before the response arrives', async () => {
    const cluster = await start('blocking');
    try {
      const r = await request(`${cluster.urls[0]}/api/v1/namespaces/default`, cluster.credentialsFor());
      expect(r.status).to.equal(200);
      expect(received(String(r.headers['audit-id'])).map((e) => e.stage)).to.deep.equal(['ResponseComplete']);
    } finally {
      await cluster.stop();
    }
  });
});
