// Upstream answers some refusals with Go's http.Error rather than a Status: a plain-text
// line, which clients show as is (APF's 429, the shutdown 429).
import type Koa from 'koa';

export function plainTextError(ctx: Koa.Context, code: number, message: string, retryAfterSeconds?: number): void {
  ctx.status = code;
  if (retryAfterSeconds !== undefined) ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${message}\n`;
}
