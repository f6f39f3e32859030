// What plugins read other objects through: the replica's watch-fed cache of one resource,
// as upstream's plugins read listers. Plugins wait (bounded) for its first list, as
// upstream's Handler.WaitForReady does, and refuse the request when it never comes.
import type { KubeObject } from '../runtime/object.js';
import { admissionForbidden } from './forbidden.js';
import type { AdmissionAttributes } from './interfaces.js';

export interface Lister {
  get(namespace: string, name: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
  /** Resolves true once the cache has its first list, false when it does not in time. */
  ready(timeoutMs: number): Promise<boolean>;
}

/** upstream's admission.Handler ready timeout */
export const readyTimeoutMs = 10_000;

export async function waitForReady(a: AdmissionAttributes, ...listers: Lister[]): Promise<void> {
  for (const l of listers) {
    if (!(await l.ready(readyTimeoutMs))) throw admissionForbidden(a, 'not yet ready to handle request');
  }
}
