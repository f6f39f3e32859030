// Upstream's long-running request check (kube-apiserver's BasicLongRunningRequestCheck):
// watches, proxies and streaming subresources are not bound by request timeouts or
// in-flight limits once started.
import type { RequestInfo } from './info.js';

const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function isLongRunning(info: Pick<RequestInfo, 'verb' | 'isResourceRequest' | 'subresource'>): boolean {
  return longRunningVerbs.has(info.verb) || (info.isResourceRequest && longRunningSubresources.has(info.subresource));
}

const readOnlyVerbs = new Set(['get', 'list', 'watch']);

/** Mutating for the in-flight limits: every verb but get, list and watch. */
export function isReadOnly(info: Pick<RequestInfo, 'verb'>): boolean {
  return readOnlyVerbs.has(info.verb);
}
