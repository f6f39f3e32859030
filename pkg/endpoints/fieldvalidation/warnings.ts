// Warning response headers as upstream writes them: `299 - "text"`, one per distinct
// warning, with quotes and backslashes escaped.
import type Koa from 'koa';

export function warningHeader(text: string): string {
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export function addWarnings(ctx: Koa.Context, texts: string[]): void {
  const state = ctx.state as { warningsSent?: Set<string> };
  state.warningsSent ??= new Set();
  for (const t of texts) {
    if (state.warningsSent.has(t)) continue;
    state.warningsSent.add(t);
    ctx.append('Warning', warningHeader(t));
  }
}
