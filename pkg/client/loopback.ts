// The server talking to itself (upstream's loopback client), without a network: each
// request is handed to the same request handler the HTTPS listener uses, on an
// in-memory socket, so it passes every filter a remote client's request does —
// authentication (as the caller's identity, by a token only this process knows),
// audit, flow control, authorization — and then admission and the store.
import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { AuthRequest, AuthResult, Authenticator } from '../authentication/interfaces.js';
import { bearerToken } from '../authentication/bearertoken/index.js';
import type { UserInfo } from '../authentication/user.js';
import type { Client } from './interfaces.js';
import { RESTClient, type APIRequest, type APIResponse, type PreferredVersion, type Transport } from './rest.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Identities handed to in-process callers, each behind a random bearer token. Consulted
 * before the configured authenticators, as upstream's loopback token is.
 */
export class LoopbackTokens {
  private byToken = new Map<string, UserInfo>();
  private byName = new Map<string, string>();

  tokenFor(user: UserInfo): string {
    let token = this.byName.get(user.name);
    if (!token) {
      token = randomBytes(32).toString('base64url');
      this.byName.set(user.name, token);
      this.byToken.set(token, user);
    }
    return token;
  }

  /** Wraps the server's authenticator: a loopback token is answered here, anything else there. */
  authenticator(delegate: Authenticator): Authenticator {
    return {
      name: delegate.name,
      authenticate: async (req: AuthRequest): Promise<AuthResult> => {
        const token = bearerToken(req);
        const user = token === undefined ? undefined : this.byToken.get(token);
        return user ? { decision: 'authenticated', user } : delegate.authenticate(req);
      },
    };
  }
}

export interface LoopbackOptions {
  tokens: LoopbackTokens;
  preferredVersion: PreferredVersion;
  /** The listener's handler; requests made before it is set wait for it. */
  handler: Promise<RequestListener>;
}

export interface ClientIdentity {
  user: UserInfo;
  /** Sent as User-Agent, whose product name is the default field manager (kube-controller-manager, kube-apiserver). */
  userAgent: string;
}

export function loopbackClient(o: LoopbackOptions, who: ClientIdentity): Client {
  return new RESTClient(new LoopbackTransport(o.handler, o.tokens.tokenFor(who.user), who.userAgent), o.preferredVersion);
}

class LoopbackTransport implements Transport {
  constructor(private readonly handler: Promise<RequestListener>, private readonly token: string, private readonly userAgent: string) {}

  async send(r: APIRequest): Promise<APIResponse> {
    const handle = await this.handler;
    const body = r.body === undefined ? undefined : Buffer.from(JSON.stringify(r.body));
    const socket = new MemorySocket();
    const req = new IncomingMessage(socket as unknown as Socket);
    req.method = r.method;
    req.url = r.path;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const headers: Record<string, string> = {
      host: 'localhost',
      authorization: `Bearer ${this.token}`,
      accept: 'application/json',
      'user-agent': this.userAgent,
    };
    if (body) {
      headers['content-type'] = r.contentType ?? 'application/json';
      headers['content-length'] = String(body.length);
    }
    req.headers = headers;
    req.rawHeaders = Object.entries(headers).flat();
    if (body) req.push(body);
    req.push(null);
    req.complete = true;

    const res = new ServerResponse(req);
    // No chunked framing: the body follows the head verbatim and ends with the response.
    res.useChunkedEncodingByDefault = false;
    res.assignSocket(socket as unknown as Socket);
    const done = new Promise<void>((resolve, reject) => {
      res.once('finish', () => resolve());
      socket.once('close', () => reject(new Error('loopback request closed before its response finished')));
    });
    void handle(req, res);
    await done;
    // What an HTTP server does once a response is sent: listeners waiting for the end
    // of the exchange (audit's ResponseComplete, metrics, logging) hear it.
    res.detachSocket(socket as unknown as Socket);
    process.nextTick(() => res.emit('close'));
    return parseResponse(Buffer.concat(socket.written));
  }
}

/** A socket that keeps what is written to it; the peer looks like a local TLS client. */
class MemorySocket extends Duplex {
  readonly written: Buffer[] = [];
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';
  readonly encrypted = true;

  override _read(): void { /* the request body is pushed on the IncomingMessage itself */ }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.written.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    cb();
  }

  setTimeout(): this { return this; }
  setNoDelay(): this { return this; }
  setKeepAlive(): this { return this; }
  destroySoon(): void { this.destroy(); }
}

function parseResponse(raw: Buffer): APIResponse {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, headEnd < 0 ? raw.length : headEnd).toString('latin1');
  const status = Number(head.slice(9, 12));
  const text = headEnd < 0 ? '' : raw.subarray(headEnd + 4).toString('utf8');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status, body };
}
