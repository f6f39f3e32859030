// The kubelet's streaming endpoints over the two transports kubectl speaks:
// - exec and attach (remotecommand): over SPDY/3.1 with protocol v4.channel.k8s.io, one
//   client-opened stream per channel named by its `streamType` header (error, stdin,
//   stdout, stderr, resize); over WebSocket with v5.channel.k8s.io (or v4), one binary
//   message per write, its first byte the channel (0 stdin, 1 stdout, 2 stderr, 3 error,
//   4 resize; v5 adds 255 <channel>, "this channel is closed").
// - portForward over SPDY/3.1 with portforward.k8s.io: per connection an error and a data
//   stream, both carrying `port` and `requestID` headers.
// Each session is recorded for tests: which transport and protocol, what the command
// read on stdin, its result.
import { PassThrough } from 'node:stream';
import type { Duplex } from 'node:stream';
import { attachToContainer, exitStatus, runInContainer, type ContainerIO, type ProcessResult } from './fake-runtime.js';
import { SpdySession, type SpdyStream } from './spdy.js';
import { WebSocketConnection } from './websocket.js';

export const spdyExecProtocols = ['v4.channel.k8s.io'];
export const webSocketExecProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
export const portForwardProtocol = 'portforward.k8s.io';

/** The kubelet's /exec and /attach path and query (input, output, error, tty, command). */
export interface StreamRequest {
  kind: 'exec' | 'attach';
  namespace: string;
  pod: string;
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export interface StreamSession {
  kind: 'exec' | 'attach' | 'portForward';
  transport: 'spdy' | 'websocket';
  protocol: string;
  request?: StreamRequest;
  /** Everything the client sent on stdin (exec/attach), or on data streams (portForward). */
  input: string;
  resizes: unknown[];
  /** portForward: the port of each data stream, in order. */
  ports: number[];
  result?: ProcessResult;
}

export function parseStreamRequest(url: URL): StreamRequest | undefined {
  const m = /^\/(exec|attach)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (!m) return undefined;
  const flag = (n: string) => ['1', 'true'].includes(url.searchParams.get(n) ?? '');
  return {
    kind: m[1] as 'exec' | 'attach',
    namespace: decodeURIComponent(m[2]), pod: decodeURIComponent(m[3]), container: decodeURIComponent(m[4]),
    command: url.searchParams.getAll('command'),
    stdin: flag('input'), stdout: flag('output'), stderr: flag('error'), tty: flag('tty'),
  };
}

function run(req: StreamRequest, io: ContainerIO): Promise<ProcessResult> {
  return req.kind === 'exec' ? runInContainer(req.command, io) : attachToContainer(req.container, io);
}

/** A client's stdin as a stream the command reads; ends when the client closes it. */
function stdinPipe(session: StreamSession): PassThrough {
  const pipe = new PassThrough();
  pipe.on('data', (d: Buffer) => { session.input += d.toString('utf8'); });
  return pipe;
}

/** How long the client may take to open its streams (the kubelet's default is 30 s). */
const streamCreationTimeoutMs = 30_000;
/** After the result is sent, how long the client has to hang up before we do. */
const lingerMs = 10_000;

export function serveExecOverSpdy(socket: Duplex, head: Buffer, req: StreamRequest, session: StreamSession): void {
  const expected = ['error'];
  if (req.stdin) expected.push('stdin');
  if (req.stdout) expected.push('stdout');
  if (req.stderr && !req.tty) expected.push('stderr');
  if (req.tty) expected.push('resize');
  const streams = new Map<string, SpdyStream>();
  let started = false;
  const timer = setTimeout(() => { if (!started) spdy.destroy(); }, streamCreationTimeoutMs);
  timer.unref();
  const spdy: SpdySession = new SpdySession(socket, (s) => {
    const type = s.header('streamType');
    streams.set(type, s);
    if (type === 'resize') s.on('data', (d: Buffer) => session.resizes.push(...jsonLines(d)));
    if (!started && expected.every((t) => streams.has(t))) {
      started = true;
      clearTimeout(timer);
      void start();
    }
  }, head);

  async function start(): Promise<void> {
    let stdin: PassThrough | undefined;
    const stdinStream = streams.get('stdin');
    if (stdinStream) {
      stdin = stdinPipe(session);
      stdinStream.on('data', (d: Buffer) => stdin!.write(d));
      stdinStream.on('end', () => stdin!.end());
      stdinStream.on('reset', () => stdin!.end());
    }
    const stdout = streams.get('stdout');
    const stderr = streams.get('stderr') ?? (req.tty ? stdout : undefined);
    const result = await run(req, { stdin, stdout: (d) => stdout?.write(d), stderr: (d) => stderr?.write(d) });
    session.result = result;
    stdout?.end();
    streams.get('stderr')?.end();
    streams.get('error')!.end(JSON.stringify(exitStatus(result, req.command)));
    // The client hangs up once it has read everything; closing first could drop frames it
    // has not handled yet.
    setTimeout(() => spdy.destroy(), lingerMs).unref();
  }
}

export function serveExecOverWebSocket(socket: Duplex, head: Buffer, req: StreamRequest, protocol: string, session: StreamSession): void {
  const ws = new WebSocketConnection(socket, head);
  const stdin = req.stdin ? stdinPipe(session) : undefined;
  const channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 };
  ws.on('message', (m: Buffer) => {
    if (m.length === 0) return;
    const data = m.subarray(1);
    if (m[0] === channel.stdin) stdin?.write(data);
    else if (m[0] === channel.resize) session.resizes.push(...jsonLines(data));
    else if (m[0] === channel.close && protocol === 'v5.channel.k8s.io' && data[0] === channel.stdin) stdin?.end();
  });
  ws.on('close', () => stdin?.end());
  const send = (ch: number) => (d: string | Buffer) => ws.sendBinary(Buffer.concat([Buffer.from([ch]), Buffer.from(d)]));
  void (async () => {
    const result = await run(req, { stdin, stdout: send(channel.stdout), stderr: send(req.tty ? channel.stdout : channel.stderr) });
    session.result = result;
    send(channel.error)(JSON.stringify(exitStatus(result, req.command)));
    ws.close();
  })();
}

/**
 * portForward: the pod listens on every port; a connection gets a greeting naming the
 * pod and port, then everything it sends echoed, and ends when the client closes it.
 */
export function servePortForwardOverSpdy(socket: Duplex, head: Buffer, pod: string, session: StreamSession): void {
  const errorStreams = new Map<string, SpdyStream>();
  new SpdySession(socket, (s) => {
    const requestID = s.header('requestID');
    const port = Number(s.header('port'));
    if (s.header('streamType') === 'error') { errorStreams.set(requestID, s); return; }
    if (s.header('streamType') !== 'data') { s.reset(); return; }
    session.ports.push(port);
    s.write(`pod ${pod} port ${port}\n`);
    s.on('data', (d: Buffer) => { session.input += d.toString('utf8'); s.write(d); });
    const done = () => { s.end(); errorStreams.get(requestID)?.end(); errorStreams.delete(requestID); };
    s.on('end', done);
    s.on('reset', done);
  }, head);
}

function jsonLines(d: Buffer): unknown[] {
  const out: unknown[] = [];
  for (const line of d.toString('utf8').split('\n').filter((l) => l.trim())) {
    try { out.push(JSON.parse(line)); } catch { out.push(line); }
  }
  return out;
}
