// A kubelet's registration of its Node, as v1.28's registerWithAPIServer and
// tryRegisterWithAPIServer (pkg/kubelet/kubelet_node_status.go): POST the Node; when the
// server already has it (409: an earlier POST's answer was lost on the way, or the kubelet
// restarted), GET it; any other failure (no answer, a reset stream, a 5xx, a GET that
// fails) is tried again, the wait doubling from 200 ms up to 7 s, until it succeeds. The
// kubelet sleeps 100 ms before its first attempt too; here the first POST goes at once,
// as before, so a run's registration phase is not 100 ms a wave longer.
// One difference, on purpose: a 4xx other than 409 (400, 401, 403, 422) is a configuration
// the server will refuse forever (a kubelet logs it and tries again every 7 s); the run
// fails at once with the server's message instead of waiting for nodes that cannot come.
import type { ApiClient, KubeObj, Reply } from './client.js';

/** The kubelet's backoff: the first wait after a failure, its doubling, its cap. */
export const registerBackoff = { firstMs: 200, maxMs: 7000 };

export interface RegisterHooks {
  /** The kubelet has been stopped: give up (undefined). */
  stopped(): boolean;
  sleep(ms: number): Promise<void>;
}

/** The registered Node as the server holds it, or undefined when stopped first. */
export async function registerNode(api: Pick<ApiClient, 'call'>, node: KubeObj, hooks: RegisterHooks): Promise<KubeObj | undefined> {
  const name = node.metadata.name;
  for (let wait = registerBackoff.firstMs; ; wait = Math.min(wait * 2, registerBackoff.maxMs)) {
    if (hooks.stopped()) return undefined;
    let res: Reply<KubeObj> = await api.call<KubeObj>({ resource: 'nodes', verb: 'POST', scope: 'resource' }, 'POST', '/api/v1/nodes', node);
    if (res.status === 409) res = await api.call<KubeObj>({ resource: 'nodes', verb: 'GET', scope: 'resource' }, 'GET', `/api/v1/nodes/${name}`);
    if (res.status === 201 || res.status === 200) return res.body;
    if (hooks.stopped()) return undefined;
    if (res.status >= 400 && res.status < 500 && res.status !== 404 && res.status !== 429) {
      throw new Error(`${name}: create node: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    await hooks.sleep(wait);
  }
}
