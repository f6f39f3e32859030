// IP address checks with upstream's messages (k8s.io/apimachinery IsValidIP and the
// core validation's ValidateNonSpecialIP). Addresses are parsed as Go's ParseIPSloppy
// does: IPv4 octets may carry leading zeros (read as decimal).
import { isIPv6 } from 'node:net';
import type { FieldError } from '../../runtime/errors.js';
import { invalid } from './field.js';

export interface ParsedIP {
  /** 4 (IPv4, including IPv4-mapped IPv6) or 16 bytes. */
  bytes: number[];
  family: 'IPv4' | 'IPv6';
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | undefined {
  if (!isIPv6(s) || s.includes('%')) return undefined;
  let text = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (v4) {
    const b = parseIPv4(v4[1]);
    if (!b) return undefined;
    tail = b;
    text = text.slice(0, -v4[1].length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const groupsWanted = (16 - tail.length) / 2;
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':').filter((g) => g !== '') : [];
  const t = rest ? rest.split(':').filter((g) => g !== '') : [];
  const groups = rest === undefined ? h : [...h, ...new Array(groupsWanted - h.length - t.length).fill('0'), ...t];
  if (groups.length !== groupsWanted) return undefined;
  const bytes = groups.flatMap((g) => { const n = parseInt(g, 16); return [n >> 8, n & 0xff]; });
  return [...bytes, ...tail];
}

/** The address, or undefined when it is not one (Go's ParseIPSloppy). */
export function parseIPSloppy(s: string): ParsedIP | undefined {
  const v4 = parseIPv4(s);
  if (v4) return { bytes: v4, family: 'IPv4' };
  const v6 = parseIPv6(s);
  if (!v6) return undefined;
  // An IPv4-mapped IPv6 address is an IPv4 address to Go (To4() is not nil).
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) return { bytes: v6.slice(12), family: 'IPv4' };
  return { bytes: v6, family: 'IPv6' };
}

/** upstream IsValidIP. */
export function isValidIP(value: string): string[] {
  return parseIPSloppy(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/** upstream IsValidIPv4Address. */
export function validateIPv4Address(field: string, value: string): FieldError[] {
  return parseIPSloppy(value)?.family === 'IPv4' ? [] : [invalid(field, value, 'must be a valid IPv4 address')];
}

/** upstream IsValidIPv6Address. */
export function validateIPv6Address(field: string, value: string): FieldError[] {
  return parseIPSloppy(value)?.family === 'IPv6' ? [] : [invalid(field, value, 'must be a valid IPv6 address')];
}

export function isLoopback(ip: ParsedIP): boolean {
  if (ip.family === 'IPv4') return ip.bytes[0] === 127;
  return ip.bytes.slice(0, 15).every((b) => b === 0) && ip.bytes[15] === 1;
}

/**
 * upstream ValidateNonSpecialIP: Endpoints and EndpointSlices may not point at
 * unspecified, loopback or link-local addresses (meaningless, or node-local services
 * such as a metadata server).
 */
export function validateNonSpecialIP(value: string, field: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [invalid(field, value, 'must be a valid IP address')];
  const b = ip.bytes;
  const v4 = ip.family === 'IPv4';
  const errs: FieldError[] = [];
  if (b.every((x) => x === 0)) errs.push(invalid(field, value, `may not be unspecified (${value})`));
  if (isLoopback(ip)) errs.push(invalid(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80) {
    errs.push(invalid(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if (v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1] & 0x0f) === 0x02) {
    errs.push(invalid(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}
