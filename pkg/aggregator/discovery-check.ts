// The availability controller's probe of an extension server (upstream's discovery
// check): GET /apis/<group>/<version> as system:kube-aggregator (system:masters), five
// tries at once, any 2xx answer within the time limit counts. The error text is
// upstream's, with Go's HTTP client wording of the cause.
import type { TransportConfig } from '../util/proxy/transport.js';
import { backendRequest, hostPort } from '../util/proxy/backend.js';
import { goDialError } from '../util/proxy/errors.js';
import { withAuthProxyHeaders } from './auth-headers.js';

export const aggregatorUser = { name: 'system:kube-aggregator', groups: ['system:masters'] };

const attempts = 5;
/** Upstream's http.Client timeout, and the outer wait that guards against slow dials. */
const clientTimeoutMs = 5_000;
const outerTimeoutMs = 6_000;

/** One GET; resolves to undefined on a 2xx, an error message otherwise. */
function probe(url: URL, transport: TransportConfig): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = backendRequest(url, transport, 'GET', withAuthProxyHeaders({}, aggregatorUser));
    const goGet = (cause: string) => `Get ${JSON.stringify(url.href)}: ${cause}`;
    const clientTimer = setTimeout(() => {
      req.destroy();
      resolve(`failing or missing response from ${url.href}: ${goGet('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')}`);
    }, clientTimeoutMs);
    const outerTimer = setTimeout(() => { req.destroy(); resolve(`timed out waiting for ${url.href}`); }, outerTimeoutMs);
    const done = (result: string | undefined) => { clearTimeout(clientTimer); clearTimeout(outerTimer); resolve(result); };
    req.once('response', (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      done(code >= 200 && code < 300 ? undefined
        : `failing or missing response from ${url.href}: bad status from ${url.href}: ${code}`);
    });
    req.once('error', (err) => done(`failing or missing response from ${url.href}: ${goGet(goDialError(err, hostPort(url)))}`));
    req.end();
  });
}

/** Undefined when the service answered; upstream's FailedDiscoveryCheck message otherwise. */
export async function discoveryCheck(resolve: () => URL, group: string, version: string, transport: TransportConfig): Promise<string | undefined> {
  const tries: Array<Promise<string | undefined>> = [];
  for (let i = 0; i < attempts; i++) {
    let url: URL;
    try {
      url = resolve();
    } catch (err) {
      tries.push(Promise.resolve((err as Error).message));
      continue;
    }
    // The legacy core group would be probed at /api/<version>.
    url.pathname = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    tries.push(probe(url, transport));
  }
  return new Promise((resolve) => {
    let pending = tries.length;
    let last: string | undefined;
    for (const t of tries) {
      void t.then((err) => {
        if (err === undefined) resolve(undefined);
        last = err;
        if (--pending === 0) resolve(last);
      });
    }
  });
}
