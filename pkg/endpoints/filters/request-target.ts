// A '#' in the request target. Browsers never send one, but any client can, and Go's server
// keeps it: url.ParseRequestURI cuts no fragment, so `/api/v1/namespaces/a#b` names the
// namespace "a#b" (a 404) and in `?x=#&dryRun=All` the dry run still counts. The URL parsing
// behind Koa cuts at '#' as a browser would, which made the first a DELETE of "a" and
// dropped the dry run of the second. Escaping it first gives upstream's reading: the path
// segment decodes back to "a#b" and the query value to "#".
import type Koa from 'koa';

export function requestTargetFilter(): Koa.Middleware {
  return (ctx, next) => {
    if (ctx.url.includes('#')) ctx.url = ctx.url.replace(/#/g, '%23');
    return next();
  };
}
