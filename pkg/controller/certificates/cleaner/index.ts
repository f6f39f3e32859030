// csrcleaner (SPEC 3.2, 8): every poll, requests past their deadline are deleted, as
// upstream's cleaner decides: issued ones 1 h after approval, denied and failed ones
// 1 h after that condition, those with no condition 24 h after creation, and any whose
// certificate has expired. --csr-cleaner-durations (ours, for tests) shortens them.
import { X509Certificate } from 'node:crypto';
import { pemDecode } from '../../../apis/certificates/pem.js';
import { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { parseDurationFlag } from '../../../util/duration.js';
import type { ControllerContext } from '../../context.js';
import type { Controller } from '../../manager.js';
import { conditionsOf, isIssued, statusOf } from '../../../apis/certificates/csr.js';

const hour = 3600_000;

export interface CleanerDurations { approved: number; denied: number; pending: number; poll: number }

export const defaultDurations: CleanerDurations = { approved: hour, denied: hour, pending: 24 * hour, poll: hour };

/** `approved=2s,denied=2s,pending=5s,poll=500ms`: any subset, the rest default. */
export function parseCleanerDurations(v: string | undefined): CleanerDurations {
  const out = { ...defaultDurations };
  for (const kv of (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [k, val] = kv.split('=');
    if (!(k in out) || val === undefined) throw new Error(`--csr-cleaner-durations: unknown entry "${kv}"`);
    out[k as keyof CleanerDurations] = parseDurationFlag('csr-cleaner-durations', val);
  }
  return out;
}

const olderThan = (t: unknown, ms: number, now: number): boolean =>
  typeof t === 'string' && t !== '' && now - Date.parse(t) > ms;

function certificateExpired(csr: KubeObject, now: number): boolean {
  const block = pemDecode(Buffer.from(statusOf(csr).certificate as string, 'base64').toString('latin1'));
  if (!block) return false;
  try {
    return now > Date.parse(new X509Certificate(block.bytes).validTo);
  } catch {
    return false;
  }
}

/** Upstream's handle: which rule, if any, makes this request due for deletion. */
export function dueForDeletion(csr: KubeObject, t: CleanerDurations, now = Date.now()): string | undefined {
  const conds = conditionsOf(csr);
  const issued = isIssued(csr);
  for (const c of conds) {
    if (c.type === 'Approved' && issued && olderThan(c.lastUpdateTime, t.approved, now)) return 'issued';
    if (c.type === 'Denied' && olderThan(c.lastUpdateTime, t.denied, now)) return 'denied';
    if (c.type === 'Failed' && olderThan(c.lastUpdateTime, t.denied, now)) return 'failed';
  }
  if (conds.length === 0 && olderThan(csr.metadata.creationTimestamp, t.pending, now)) return 'pending';
  if (issued && conds.some((c) => c.type === 'Approved') && certificateExpired(csr, now)) return 'expired';
  return undefined;
}

export function csrCleanerController(d: ControllerContext): Controller {
  const durations = parseCleanerDurations(d.o.csrCleanerDurations);
  const csrs = d.informers.informerFor('certificates.k8s.io', 'certificatesigningrequests');
  const client = d.client('certificate-controller').resource('certificates.k8s.io', 'certificatesigningrequests');

  const pass = async (): Promise<void> => {
    for (const csr of csrs.list()) {
      const why = dueForDeletion(csr, durations);
      if (!why) continue;
      d.log.info({ csr: csr.metadata.name, why }, 'deleting certificate signing request past its deadline');
      try {
        await client.delete('', csr.metadata.name ?? '', { preconditions: { uid: csr.metadata.uid } });
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) {
          d.log.warn({ controller: 'csrcleaner', csr: csr.metadata.name, err: (err as Error).message }, 'delete failed');
        }
      }
    }
  };

  return {
    name: 'csrcleaner',
    start() {
      let running = false;
      const tick = () => {
        if (running) return;
        running = true;
        void pass().finally(() => { running = false; });
      };
      void csrs.waitForSync().then(tick);
      const timer = setInterval(tick, durations.poll);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
