// Shared by the proxy subresources of pods, nodes and services: the `scheme:name:port`
// name, the proxied path, and which addresses may be proxied to.
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { errors } from '../../../runtime/errors.js';

export interface SchemeNamePort { scheme: string; name: string; port: string }

/** Upstream's SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port` (scheme http or https). */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  let r: SchemeNamePort;
  if (parts.length === 1) r = { scheme: '', name: parts[0], port: '' };
  else if (parts.length === 2) r = { scheme: '', name: parts[0], port: parts[1] };
  else if (parts.length === 3) r = { scheme: parts[0], name: parts[1], port: parts[2] };
  else return undefined;
  return r.name && ['', 'http', 'https'].includes(r.scheme) ? r : undefined;
}

export function hostPort(host: string, port: string): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port ? `${h}:${port}` : h;
}

/** The backend URL: location plus the proxied path (empty stays empty: see rootRedirect). */
export function proxyURL(scheme: string, host: string, path: string): URL {
  return new URL(`${scheme || 'http'}://${host}${cleanPath(path)}`);
}

/** Go's path.Join("", p) keeping a trailing slash (net.JoinPreservingTrailingSlash). */
function cleanPath(p: string): string {
  if (!p) return '/';
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  const joined = `/${out.join('/')}`;
  return p.endsWith('/') && joined !== '/' ? `${joined}/` : joined;
}

/** Go's IP.IsGlobalUnicast: not unspecified, loopback, link-local, multicast or broadcast. */
export function isGlobalUnicast(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number);
    return !(ip === '0.0.0.0' || ip === '255.255.255.255' || a === 127 || (a >= 224 && a <= 239) || (a === 169 && b === 254));
  }
  if (v === 6) {
    const low = ip.toLowerCase();
    if (low === '::' || low === '::1') return false;
    if (/^ff/.test(low) || /^fe[89ab]/.test(low)) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(low);
    return mapped ? isGlobalUnicast(mapped[1]) : true;
  }
  return false;
}

/** Upstream's proxyable-address check for pods and nodes (CVE-2020-8562): 400 'address not allowed'. */
export async function requireProxyable(host: string): Promise<void> {
  let addrs: string[];
  if (isIP(host)) addrs = [host];
  else {
    try {
      addrs = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw errors.badRequest(`lookup ${host}: no such host`);
    }
  }
  if (addrs.length === 0) throw errors.badRequest('no addresses for hostname');
  if (addrs.some((a) => !isGlobalUnicast(a))) throw errors.badRequest('address not allowed');
}
