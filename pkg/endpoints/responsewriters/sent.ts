// When a response has really been sent: a handler's return is not it, since a streamed
// body (a large list) is written afterwards, and a client may go away first.
import type { ServerResponse } from 'node:http';
import { responseOver } from '../../util/net/connection.js';

/** Calls `done` once, when `res` has finished or closed (at once if it already has). */
export function whenResponseSent(res: ServerResponse, done: () => void): void {
  if (responseOver(res)) {
    done();
    return;
  }
  let called = false;
  const once = (): void => {
    if (called) return;
    called = true;
    res.off('finish', once);
    res.off('close', once);
    done();
  };
  res.once('finish', once);
  res.once('close', once);
}
