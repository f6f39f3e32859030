// The fuzz campaign's findings on disk, one JSON object a line, written as they come (so a
// run that dies half-way still leaves what it found): the request exactly as sent (path and
// headers after the sender's escaping, the body in base64), the answer, and the verdict;
// a first line with the run's seed and a last one with its summary. Any request can be
// replayed from it, or regenerated from the seed and chunk offset.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FuzzRequest } from './arbitraries.js';
import type { Finding, FuzzReport } from './runner.js';
import { sendableHeader, sendablePath, type RawOutcome } from './send.js';

const bodyCap = 64 * 1024;

function requestAsSent(r: FuzzRequest): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = sendableHeader(v);
  let path: string;
  try {
    path = sendablePath(r.path);
  } catch {
    path = r.path; // never sent: Node refused to build it
  }
  return {
    method: r.method, path, headers, anonymousTransport: r.anonymousTransport, bodyKind: r.bodyKind,
    bodyBytes: r.body?.length ?? 0,
    body: r.body ? r.body.subarray(0, bodyCap).toString('base64') : undefined,
    bodyTruncated: (r.body?.length ?? 0) > bodyCap || undefined,
  };
}

function answer(o: RawOutcome): Record<string, unknown> {
  if (o.kind !== 'response') return { ...o };
  return { kind: o.kind, status: o.status, headers: o.headers, body: o.body.subarray(0, bodyCap).toString('utf8'), ms: o.ms, streamed: o.streamed };
}

export class FindingsLog {
  constructor(private readonly path: string) {}

  private line(o: Record<string, unknown>): void {
    appendFileSync(this.path, `${JSON.stringify({ at: new Date().toISOString(), ...o })}\n`);
  }

  /** Truncates the file: it holds one run. */
  start(run: Record<string, unknown>): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, '');
    this.line({ type: 'start', ...run });
  }

  finding(f: Finding, sent?: FuzzRequest, out?: RawOutcome): void {
    this.line({
      type: 'finding', verdict: { problem: f.problem, detail: f.detail },
      request: sent ? requestAsSent(sent) : f.request, answer: out ? answer(out) : undefined,
    });
  }

  /** A state-change finding belongs to a whole batch: every request of it and its answer. */
  batch(reqs: FuzzRequest[], outs: RawOutcome[]): void {
    this.line({ type: 'batch', requests: reqs.map((r, i) => ({ request: requestAsSent(r), answer: answer(outs[i]!) })) });
  }

  end(r: FuzzReport): void {
    this.line({
      type: 'summary', seed: r.seed, sent: r.sent, findings: r.findings.length, elapsedMs: r.elapsedMs, stateChecks: r.stateChecks,
      byStatus: r.byStatus, byBodyKind: r.byBodyKind, maxRssKiB: r.maxRssKiB,
      byProblem: r.findings.reduce<Record<string, number>>((m, f) => ({ ...m, [f.problem]: (m[f.problem] ?? 0) + 1 }), {}),
    });
  }
}
