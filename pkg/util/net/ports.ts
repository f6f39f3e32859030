import { createServer, type AddressInfo, type Server } from 'node:net';

/** n distinct TCP ports that were free on host a moment ago. */
export async function freePorts(n: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise<Server>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => resolve(s));
  })));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await freePorts(1, host);
  return port!;
}
