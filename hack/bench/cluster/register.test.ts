// A simulated kubelet registers its Node as a kubelet does: a POST whose answer is lost
// (status 0), or a 5xx, is sent again after a backoff doubling from 200 ms to 7 s; a 409
// (the lost POST did create it) is followed by a GET of the Node; stopping ends the loop.
import { expect } from 'chai';
import type { ApiClient, KubeObj, Reply } from './client.js';
import { registerNode } from './register.js';

const node: KubeObj = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'hollow-node-7' } };

/** An API that answers each call with the next of `answers`, noting what was sent. */
function scripted(answers: Array<Reply<KubeObj>>) {
  const sent: string[] = [];
  const api = {
    call: (_label: unknown, method: string, path: string) => {
      sent.push(`${method} ${path}`);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected ${method} ${path}`);
      return Promise.resolve(next);
    },
  };
  return { api: api as unknown as Pick<ApiClient, 'call'>, sent };
}

const lost = (status = 0): Reply<KubeObj> => ({ status, body: {} as KubeObj });
const created = (uid: string): Reply<KubeObj> => ({ status: 201, body: { metadata: { name: 'hollow-node-7', uid } } });

describe('cluster load: a kubelet\'s Node registration', () => {
  it('registers with one POST when it is answered', async () => {
    const { api, sent } = scripted([created('u1')]);
    const waits: number[] = [];
    const got = await registerNode(api, node, { stopped: () => false, sleep: async (ms) => { waits.push(ms); } });
    expect(got?.metadata.uid).to.equal('u1');
    expect(sent).to.deep.equal(['POST /api/v1/nodes']);
    expect(waits).to.deep.equal([]);
  });

  it('sends an unanswered POST again after a backoff, and GETs the Node when the lost POST had created it', async () => {
    const { api, sent } = scripted([
      lost(), // the answer was lost
      lost(503),
      lost(),
      { status: 409, body: { kind: 'Status', code: 409 } as unknown as KubeObj },
      { status: 200, body: { metadata: { name: 'hollow-node-7', uid: 'u2' } } },
    ]);
    const waits: number[] = [];
    const got = await registerNode(api, node, { stopped: () => false, sleep: async (ms) => { waits.push(ms); } });
    expect(got?.metadata.uid).to.equal('u2');
    expect(sent).to.deep.equal(['POST /api/v1/nodes', 'POST /api/v1/nodes', 'POST /api/v1/nodes', 'POST /api/v1/nodes', 'GET /api/v1/nodes/hollow-node-7']);
    expect(waits).to.deep.equal([200, 400, 800]);
  });

  it('doubles its wait up to 7 s, and tries again when the GET after a 409 fails', async () => {
    const answers: Array<Reply<KubeObj>> = Array.from({ length: 8 }, () => (lost()));
    answers.push(lost(409), lost(), created('u3'));
    const { api, sent } = scripted(answers);
    const waits: number[] = [];
    const got = await registerNode(api, node, { stopped: () => false, sleep: async (ms) => { waits.push(ms); } });
    expect(got?.metadata.uid).to.equal('u3');
    expect(sent.filter((s) => s.startsWith('GET'))).to.deep.equal(['GET /api/v1/nodes/hollow-node-7']);
    expect(waits).to.deep.equal([200, 400, 800, 1600, 3200, 6400, 7000, 7000, 7000]);
  });

  it('fails at once on a refusal the server will repeat (403), and gives up when stopped', async () => {
    const refused = scripted([{ status: 403, body: { message: 'forbidden' } as unknown as KubeObj }]);
    let error: Error | undefined;
    try { await registerNode(refused.api, node, { stopped: () => false, sleep: async () => undefined }); } catch (err) { error = err as Error; }
    expect(error?.message).to.match(/^hollow-node-7: create node: 403 /);
    let stopped = false;
    const unanswered = scripted([lost(), lost()]);
    const got = await registerNode(unanswered.api, node, { stopped: () => stopped, sleep: async () => { stopped = true; } });
    expect(got).to.equal(undefined);
    expect(unanswered.sent).to.have.length(1);
  });
});
