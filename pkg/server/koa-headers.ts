// Koa 3's response.set() builds, for each header it sets, an entries array, a mapped copy
// of it, a pair per entry and a closure to walk them (about 500 bytes), and every response
// sets five or six (Audit-ID, the priority-and-fairness pair, Content-Type, and
// Content-Length from Koa's own body setter). This is the same method without them: a
// name sets one header, an object each of its members, a one-element array for
// Content-Type or Content-Length its element, nothing once the head is sent.
import { strict as assert } from 'node:assert';
import type Koa from 'koa';

type HeaderValue = number | string | readonly string[];

function set(this: Koa.Response, field: string | Record<string, HeaderValue>, val?: HeaderValue): void {
  if (this.headerSent || !field) return;
  if (typeof field !== 'string') {
    for (const name of Object.keys(field)) set.call(this, name, field[name]);
    return;
  }
  this.res.setHeader(field, singleValued(field, val!));
}

function singleValued(field: string, value: HeaderValue): HeaderValue {
  if (!Array.isArray(value)) return value;
  const name = field.toLowerCase();
  if (name !== 'content-type' && name !== 'content-length') return value;
  assert(value.length === 1, `${field} must contain exactly one value`);
  return value[0] as string;
}

/** Gives `app`'s responses the set() above. */
export function leanHeaderSet(app: Koa): void {
  (app.response as unknown as { set: typeof set }).set = set;
}
