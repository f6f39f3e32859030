// Kubernetes' URL library (library/urls.go): url(string) parses as Go's
// url.ParseRequestURI (an absolute URI or an absolute path), isURL(string) tells whether
// it would; getScheme, getHost, getHostname, getPort, getEscapedPath, getQuery read the
// parts as Go's net/url returns them (the host as written, the port without defaults).
import type { CelFunc, CelMap } from '@bufbuild/cel';
import { cel } from '../runtime.js';

/** URL values are maps tagged with this key; methods read the parsed parts from them. */
const TAG = '@url';

interface ParsedURL { scheme: string; opaque: string; host: string; path: string; rawQuery: string }

export function parseRequestURI(s: string): ParsedURL {
  const fail = (why: string): never => { throw new Error(`parse ${JSON.stringify(s)}: ${why}`); };
  if (s === '') fail('empty url');
  let rest = s;
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!;
    rest = rest.slice(m[0].length);
  } else if (/^[^/]*:/.test(rest)) {
    fail('first path segment in URL cannot contain colon');
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme) return { scheme, opaque: rest, host: '', path: '', rawQuery };
    fail('invalid URI for request');
  }
  let host = '';
  if (scheme && rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    host = authority.slice(authority.lastIndexOf('@') + 1);
    if (/[\s<>"{}|\\^`]/.test(host)) fail(`invalid character ${JSON.stringify(host.match(/[\s<>"{}|\\^`]/)![0])} in host name`);
    if (host.startsWith('[') && !host.includes(']')) fail('missing \']\' in host');
    const port = portOf(host);
    if (port && !/^\d*$/.test(port)) fail(`invalid port ${JSON.stringify(':' + port)} after host`);
  }
  return { scheme, opaque: '', host, path: rest, rawQuery };
}

function portOf(host: string): string {
  const colon = host.lastIndexOf(':');
  if (colon < 0) return '';
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return colon > close ? host.slice(colon + 1) : '';
  }
  return host.slice(colon + 1);
}

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

function parts(u: CelMap): ParsedURL {
  const raw = u.get(TAG);
  if (typeof raw !== 'string') throw new Error('no such overload');
  return parseRequestURI(raw);
}

function query(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of raw.split('&')) {
    if (!pair || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const dec = (x: string): string => { try { return decodeURIComponent(x.replace(/\+/g, ' ')); } catch { return x; } };
    const k = dec(eq < 0 ? pair : pair.slice(0, eq));
    const v = eq < 0 ? '' : dec(pair.slice(eq + 1));
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

export function urlFunctions(): CelFunc[] {
  const { celFunc, celMethod, CelScalar, listType, mapType } = cel();
  const { STRING, BOOL, DYN } = CelScalar;
  const URL_T = mapType(STRING, DYN);
  return [
    celFunc('url', [STRING], URL_T, (s) => {
      try {
        parseRequestURI(s);
      } catch (err) {
        throw new Error(`URL parse error during conversion from string: ${(err as Error).message}`);
      }
      return new Map([[TAG, s]]);
    }),
    celFunc('isURL', [STRING], BOOL, (s) => {
      try {
        parseRequestURI(s);
        return true;
      } catch {
        return false;
      }
    }),
    celMethod('getScheme', URL_T, [], STRING, function () { return parts(this).scheme; }),
    celMethod('getHost', URL_T, [], STRING, function () { return parts(this).host; }),
    celMethod('getHostname', URL_T, [], STRING, function () { return hostnameOf(parts(this).host); }),
    celMethod('getPort', URL_T, [], STRING, function () { return portOf(parts(this).host); }),
    celMethod('getEscapedPath', URL_T, [], STRING, function () { return parts(this).path; }),
    celMethod('getQuery', URL_T, [], mapType(STRING, listType(STRING)), function () { return query(parts(this).rawQuery); }),
  ];
}
