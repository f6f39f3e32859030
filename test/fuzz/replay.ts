// Replays the findings of a campaign (the JSON lines findings-log.ts writes) against one
// replica and judges each answer again: `node dist/test/fuzz/replay.js <findings.jsonl>`
// starts a replica (with the campaign's token user) and prints one line per finding, old
// verdict and new; exit 1 if any still fails. A state-change finding is replayed request by
// request (its batch); the etcd check itself is the campaign's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startReplicas } from '../harness/index.js';
import { FUZZ_ADMIN_TOKEN } from './arbitraries.js';
import { ensureFixtures } from './runner.js';
import { createSender, type RawRequest } from './send.js';
import { judge } from './verdict.js';

interface LoggedRequest extends Omit<RawRequest, 'body'> { body?: string; anonymousTransport: boolean }

export function loggedRequests(text: string): Array<{ was: string; request: LoggedRequest }> {
  const out: Array<{ was: string; request: LoggedRequest }> = [];
  for (const line of text.split('\n').filter(Boolean)) {
    const o = JSON.parse(line) as { type: string; verdict?: { problem: string; detail: string }; request?: unknown; requests?: Array<{ request: LoggedRequest }> };
    if (o.type === 'finding' && o.request && typeof o.request === 'object') out.push({ was: `${o.verdict!.problem}: ${o.verdict!.detail}`, request: o.request as LoggedRequest });
    if (o.type === 'batch') for (const r of o.requests ?? []) out.push({ was: 'in a batch that changed stored state', request: r.request });
  }
  return out;
}

async function main(file: string): Promise<number> {
  const entries = loggedRequests(readFileSync(file, 'utf8'));
  const cluster = await startReplicas(1, { tokens: [{ token: FUZZ_ADMIN_TOKEN, name: 'fuzz-admin', groups: ['system:masters'] }], extraArgs: ['--request-timeout=10s'] });
  const admin = cluster.credentialsFor('admin');
  const withCert = createSender(cluster.urls[0]!, admin, 1);
  const noCert = createSender(cluster.urls[0]!, { ca: admin.ca }, 1);
  let failing = 0;
  try {
    await ensureFixtures(cluster.urls[0]!, admin);
    for (const { was, request } of entries) {
      // The path and headers were logged as sent: no further escaping changes them.
      const r: RawRequest = { ...request, body: request.body === undefined ? undefined : Buffer.from(request.body, 'base64') };
      const out = await (request.anonymousTransport ? noCert : withCert).send(r, 30_000);
      const v = judge(r, out);
      if (!v.ok) failing++;
      console.log(`${v.ok ? 'ok  ' : 'FAIL'} ${r.method} ${r.path.slice(0, 160)} -> ${out.kind === 'response' ? out.status : out.kind}${v.ok ? '' : ` ${v.problem}: ${v.detail}`}\n     was: ${was.slice(0, 200)}`);
      await ensureFixtures(cluster.urls[0]!, admin);
    }
  } finally {
    withCert.close();
    noCert.close();
    await cluster.stop();
  }
  console.log(`replay: ${entries.length} requests, ${failing} still failing`);
  return failing > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv[2]) {
    console.error('usage: node dist/test/fuzz/replay.js <fuzz-findings.jsonl>');
    process.exit(2);
  }
  main(process.argv[2]).then((code) => process.exit(code), (err) => { console.error(err); process.exit(2); });
}
