// The real kubectl exec, attach and port-forward through two replicas to a fake kubelet
// that speaks the kubelet's streaming protocols: kubectl v1.28 over SPDY/3.1
// (remotecommand v4.channel.k8s.io, portforward.k8s.io), kubectl v1.34 over WebSocket
// (v5.channel.k8s.io), and port-forward (v1.34 falling back to SPDY when its WebSocket
// tunnel is refused). Output, stdin, exit codes, RBAC on pods/exec, and the kubelet seeing
// the apiserver's client certificate.
import { connect } from 'node:net';
import { expect } from 'chai';
import { kubectl, kubectlStream, startReplicas, type Cluster, type KubectlResult, type KubectlVersion } from '../harness/index.js';
import { fakeKubeletNode, startFakeKubelet, type FakeKubelet } from '../harness/fake-kubelet.js';
import type { StreamSession } from '../harness/streaming/remote-command.js';

describe('e2e: kubectl exec, attach and port-forward through a kubelet', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let kubelet: FakeKubelet;
  const ns = `e2e-exec-${Date.now().toString(36)}`;
  const k = (args: string[], o: { replica?: number; version?: KubectlVersion; stdin?: string; user?: string } = {}): Promise<KubectlResult> =>
    kubectl(['-n', ns, ...args], { kubeconfig: cluster.kubeconfigFor(o.replica ?? 0, o.user), version: o.version, stdin: o.stdin, timeoutMs: 30_000 });
  const ok = async (args: string[], o: Parameters<typeof k>[1] = {}): Promise<string> => {
    const r = await k(args, o);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
    return r.stdout;
  };
  /** The session the kubelet served for the last request. */
  const lastSession = (): StreamSession => kubelet.sessions[kubelet.sessions.length - 1];

  before(async () => {
    kubelet = await startFakeKubelet({ upgrades: 'serve' });
    cluster = await startReplicas(2, {
      extraArgs: kubelet.apiserverArgs, authorizationMode: 'RBAC',
      tokens: [{ token: 'viewer-token', name: 'viewer' }],
    });
    await ok(['create', 'namespace', ns]);
    const res = await kubectl(['create', '-f', '-'], { kubeconfig: cluster.kubeconfigFor(0), stdin: JSON.stringify(fakeKubeletNode('e2e-exec-node', kubelet.port)) });
    expect(res.code, res.stderr).to.equal(0);
    const pod = (name: string, containers: string[]) => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns },
      spec: { nodeName: 'e2e-exec-node', containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
    });
    await ok(['apply', '-f', '-'], { stdin: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [pod('web', ['app']), pod('multi', ['a', 'b'])] }) });
    // viewer may read pods but not exec into them.
    await ok(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']);
    await ok(['create', 'rolebinding', 'viewer-pods', '--role=pod-reader', '--user=viewer']);
  });
  after(async () => { await cluster?.stop(); await kubelet?.stop(); });

  for (const version of ['1.28', '1.34'] as const) {
    const transport = version === '1.28' ? 'spdy' : 'websocket';
    const protocol = version === '1.28' ? 'v4.channel.k8s.io' : 'v5.channel.k8s.io';

    describe(`kubectl v${version} (${transport})`, () => {
      it('exec prints the command\'s output through either replica', async () => {
        for (const replica of [0, 1]) {
          const before = kubelet.sessions.length;
          const out = await ok(['exec', 'web', '--', 'echo', 'hi', `from-${replica}`], { replica, version });
          expect(out).to.equal(`hi from-${replica}\n`);
          expect(kubelet.sessions.length).to.equal(before + 1);
          expect(lastSession()).to.deep.include({ kind: 'exec', transport, protocol, result: { exitCode: 0 } });
          expect(lastSession().request).to.deep.include({ namespace: ns, pod: 'web', container: 'app', command: ['echo', 'hi', `from-${replica}`], stdin: false, stdout: true, stderr: true, tty: false });
          // The kubelet saw the apiserver's own request, with its kubelet client certificate.
          const seen = kubelet.requests[kubelet.requests.length - 1];
          expect(seen.clientCN).to.equal('kube-apiserver-kubelet-client');
          expect(seen.url).to.equal(`/exec/${ns}/web/app?command=echo&command=hi&command=from-${replica}&error=1&output=1`);
          if (transport === 'spdy') expect([seen.method, seen.headers.upgrade]).to.deep.equal(['POST', 'SPDY/3.1']);
          else expect([seen.method, seen.headers.upgrade, seen.headers['sec-websocket-protocol']]).to.deep.equal(['GET', 'websocket', 'v5.channel.k8s.io']);
        }
      });

      it('exec -i passes stdin to the command and ends it at EOF', async () => {
        const out = await ok(['exec', '-i', 'web', '--', 'cat'], { version, stdin: 'line one\nline two\n' });
        expect(out).to.equal('line one\nline two\n');
        expect(lastSession()).to.deep.include({ transport, input: 'line one\nline two\n', result: { exitCode: 0 } });
        expect(lastSession().request?.stdin).to.equal(true);
      });

      it('exec keeps stdout and stderr apart and propagates a non-zero exit code', async () => {
        const r = await k(['exec', 'multi', '-c', 'b', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'], { replica: 1, version });
        expect(r.stdout).to.equal('out\n');
        expect(r.stderr).to.equal('err\ncommand terminated with exit code 3\n');
        expect(r.code).to.equal(3);
        expect(lastSession().request).to.deep.include({ container: 'b', command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] });
      });

      it('exec of a command the container lacks shows the runtime\'s error', async () => {
        const r = await k(['exec', 'web', '--', 'nosuch'], { version });
        expect(r.code).to.equal(1);
        expect(r.stderr.trim()).to.equal('error: Internal error occurred: error executing command in container: OCI runtime exec failed: exec failed: unable to start container process: exec: "nosuch": executable file not found in $PATH: unknown');
      });

      it('attach -i echoes stdin after the container\'s greeting', async () => {
        const out = await ok(['attach', '-i', 'multi', '-c', 'a'], { version, stdin: 'ping\n' });
        expect(out).to.equal('attached to a\nping\n');
        expect(lastSession()).to.deep.include({ kind: 'attach', transport, input: 'ping\n' });
      });
    });
  }

  describe('authorization and port forwarding', () => {
  it('RBAC refuses exec to a user without create on pods/exec, with upstream\'s message', async () => {
    // kubectl v1.34's websocket GET is refused too, and its SPDY fallback then shows the POST's refusal.
    for (const version of ['1.28', '1.34'] as const) {
      const before = kubelet.requests.length;
      const r = await k(['exec', 'web', '--', 'echo', 'hi'], { version, user: 'viewer' });
      expect(r.code, version).to.equal(1);
      expect(r.stderr.trim(), version).to.equal(`Error from server (Forbidden): pods "web" is forbidden: User "viewer" cannot create resource "pods/exec" in API group "" in the namespace "${ns}"`);
      expect(kubelet.requests.length, version).to.equal(before);
    }
  });

  it('as in upstream v1.28, a websocket exec (a GET) needs only get on pods/exec', async () => {
    await ok(['create', 'role', 'exec-getter', '--verb=get', '--resource=pods/exec']);
    await ok(['create', 'rolebinding', 'viewer-exec-get', '--role=exec-getter', '--user=viewer']);
    let ws = await k(['exec', 'web', '--', 'echo', 'over', 'websocket'], { version: '1.34', user: 'viewer' });
    // The binding reaches the authorizer's cache a moment later.
    for (let i = 0; i < 20 && ws.code !== 0; i++) ws = await k(['exec', 'web', '--', 'echo', 'over', 'websocket'], { version: '1.34', user: 'viewer' });
    expect(ws.code, ws.stderr).to.equal(0);
    expect(ws.stdout).to.equal('over websocket\n');
    expect(lastSession().transport).to.equal('websocket');
    const spdy = await k(['exec', 'web', '--', 'echo', 'hi'], { version: '1.28', user: 'viewer' });
    expect(spdy.code).to.equal(1);
    expect(spdy.stderr).to.contain('cannot create resource "pods/exec"');
  });

  for (const version of ['1.28', '1.34'] as const) {
    it(`kubectl v${version} port-forward reaches the pod's port over SPDY`, async () => {
      // kubectl forwards only to a running pod.
      await ok(['patch', 'pod', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running"}}']);
      const before = kubelet.requests.length;
      const pf = kubectlStream(['-n', ns, 'port-forward', 'pod/web', ':8080'], { kubeconfig: cluster.kubeconfigFor(1), version });
      try {
        await pf.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 8080/);
        const port = Number(/Forwarding from 127\.0\.0\.1:(\d+) -> 8080/.exec(pf.stdout())![1]);
        for (const msg of ['first\n', 'second\n']) {
          const got = await roundTrip(port, msg);
          expect(got).to.equal(`pod ${ns}/web port 8080\n${msg}`);
        }
        expect(lastSession()).to.deep.include({ kind: 'portForward', transport: 'spdy', protocol: 'portforward.k8s.io', input: 'first\nsecond\n' });
        expect(lastSession().ports).to.deep.equal([8080, 8080]);
        const upgrades = kubelet.requests.slice(before).map((r) => [r.method, r.url, r.headers.upgrade, r.clientCN]);
        // v1.34 first asks for a SPDY tunnel over WebSocket (no ports in the query), which a v1.28
        // kubelet refuses; it falls back to SPDY.
        const spdy = ['POST', `/portForward/${ns}/web`, 'SPDY/3.1', 'kube-apiserver-kubelet-client'];
        expect(upgrades).to.deep.equal(version === '1.28' ? [spdy] : [['GET', `/portForward/${ns}/web`, 'websocket', 'kube-apiserver-kubelet-client'], spdy]);
      } finally {
        pf.stop();
      }
    });
  }
  });
});

/** Connects, sends `msg`, and reads until the greeting line and the echo have come back. */
function roundTrip(port: number, msg: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`only ${JSON.stringify(got)} came back`)); }, 10_000);
    socket.on('connect', () => socket.write(msg));
    socket.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.endsWith(msg) && got.includes('\n') && got.indexOf('\n') < got.length - msg.length) {
        clearTimeout(timer);
        socket.end();
        resolve(got);
      }
    });
    socket.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}
