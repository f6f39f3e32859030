// The HTTP/2 sessions of the secure listener, as Go's http2 server keeps its connections:
// a session with no open stream for the idle timeout is closed with a GOAWAY (a watch
// that stays quiet is an open stream, so its session stays), the connection window is
// sized for every stream's upload buffer, and at shutdown each session is told to go away
// (streams in flight finish) and later cut.
import type { Http2SecureServer, ServerHttp2Session } from 'node:http2';

/** Go's MaxUploadBufferPerStream in kube-apiserver (its 99th percentile of request bodies). */
export const uploadBufferPerStream = 256 * 1024;

export interface Http2Sessions {
  /** GOAWAY to every session: no new streams, the open ones finish. */
  goAwayAll(): void;
  /** Cut every session now. */
  destroyAll(): void;
  readonly count: number;
}

export function trackSessions(server: Http2SecureServer, o: { idleTimeoutMs: number; maxStreams: number }): Http2Sessions {
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    let open = 0;
    let idle: NodeJS.Timeout | undefined;
    const waitIdle = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => { if (!session.closed && !session.destroyed) session.close(); }, o.idleTimeoutMs);
      idle.unref();
    };
    waitIdle();
    // Room for every stream's upload at once, as upstream sizes the connection's window.
    session.setLocalWindowSize(Math.min(uploadBufferPerStream * o.maxStreams, 2 ** 31 - 1));
    session.on('stream', (stream) => {
      open++;
      clearTimeout(idle);
      stream.once('close', () => { if (--open === 0) waitIdle(); });
    });
    session.once('close', () => { clearTimeout(idle); sessions.delete(session); });
  });
  return {
    goAwayAll() { for (const s of sessions) if (!s.closed && !s.destroyed) s.close(); },
    destroyAll() { for (const s of sessions) s.destroy(); },
    get count() { return sessions.size; },
  };
}
