// The load balancer as a process:  node dist/hack/lb/main.js <listenPort> <backendPort>...
// Logs one line per connection ("lb: connection -> 127.0.0.1:<port>") so a run shows how
// connections were spread; prints "lb: listening on <port>" once it accepts.
import { startLoadBalancer } from './tcp-lb.js';

const [listen, ...backends] = process.argv.slice(2).map(Number);
if (listen === undefined || backends.length === 0 || [listen, ...backends].some((p) => !Number.isInteger(p) || p < 0 || p > 65535)) {
  process.stderr.write('usage: node dist/hack/lb/main.js <listenPort> <backendPort>...\n');
  process.exit(2);
}
const lb = await startLoadBalancer(() => backends, {
  port: listen,
  onConnect: (_i, port) => process.stdout.write(`lb: connection -> 127.0.0.1:${port}\n`),
});
process.stdout.write(`lb: listening on ${lb.port}, backends ${backends.join(',')}\n`);
const stop = (): void => { void lb.close().then(() => process.exit(0)); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
