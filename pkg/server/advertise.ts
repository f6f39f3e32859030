// The address a replica publishes for itself (upstream's DefaultAdvertiseAddress): the
// --advertise-address flag; else the bind address when it is a real one; else the
// address of the host's default-route interface, as upstream's ChooseHostInterface.
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { isLoopback, parseIPSloppy } from '../apis/validation/ip.js';

function usable(ip: string): boolean {
  const p = parseIPSloppy(ip);
  return Boolean(p) && !isLoopback(p!) && !p!.bytes.every((b) => b === 0);
}

/** The interface holding the IPv4 default route (/proc/net/route), if the host has one. */
function defaultRouteInterface(): string | undefined {
  try {
    const lines = readFileSync('/proc/net/route', 'utf8').split('\n').slice(1);
    return lines.map((l) => l.trim().split(/\s+/)).find((f) => f[1] === '00000000' && f[7] === '00000000')?.[0];
  } catch {
    return undefined;
  }
}

export function hostAddress(): string | undefined {
  const all = networkInterfaces();
  const v4 = (name: string) => (all[name] ?? []).filter((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'));
  const preferred = defaultRouteInterface();
  if (preferred && v4(preferred).length > 0) return v4(preferred)[0].address;
  return Object.keys(all).flatMap(v4)[0]?.address;
}

/**
 * Without any usable address the bind address is kept: upstream refuses to start there,
 * we start and let Endpoints validation refuse the loopback address, as it would a flag.
 */
export function advertiseAddress(flag: string | undefined, bindAddress: string): string {
  // An explicit address is used as given (even loopback); only 0.0.0.0 or :: means "choose".
  if (flag && !parseIPSloppy(flag)?.bytes.every((b) => b === 0)) return flag;
  if (usable(bindAddress)) return bindAddress;
  return hostAddress() ?? bindAddress;
}
