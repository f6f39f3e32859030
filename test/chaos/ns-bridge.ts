// Runs inside a network namespace (`ip netns exec <ns> node ns-bridge.js SPEC...`) and joins
// its loopback to the host's through Unix sockets, which a network namespace does not
// separate: SPEC is `tcp:PORT=unix:PATH` (listen on the namespace's 127.0.0.1:PORT, relay to
// the socket) or `unix:PATH=tcp:PORT` (the other way). Prints "ready" once it listens.
// Plain relays: the faults are applied by the host's end of each link (netns.ts).
import { startFaultLink, type Endpoint } from './fault-link.js';

function endpoint(s: string): Endpoint {
  if (s.startsWith('tcp:')) return { port: Number(s.slice(4)) };
  if (s.startsWith('unix:')) return { path: s.slice(5) };
  throw new Error(`bad endpoint ${s}: want tcp:PORT or unix:PATH`);
}

const specs = process.argv.slice(2).map((a) => {
  const [from, to] = a.split('=');
  if (!from || !to) throw new Error(`bad spec ${a}: want FROM=TO`);
  return [endpoint(from), endpoint(to)] as const;
});
await Promise.all(specs.map(([from, to]) => startFaultLink(from, to)));
process.stdout.write('ready\n');
