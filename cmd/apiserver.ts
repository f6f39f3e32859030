// kube-apiserver's command: flags -> options -> run one replica until a signal.
import { createLogger } from '../pkg/endpoints/filters/logging.js';
import { parseOptions } from '../pkg/server/options.js';
import { runServer, type RunningServer } from '../pkg/server/server.js';

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const log = createLogger(options.logLevel, undefined, options.loggingFormat);
  // Handlers go in before the server starts: readyz can answer before runServer returns,
  // and a SIGTERM then must still shut down gracefully rather than kill the process.
  let signaled = false;
  let started: RunningServer | undefined;
  const stop = (server: RunningServer) => {
    server.stop().then(() => process.exit(0), (err) => { log.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  const shutdown = (signal: string) => {
    if (signaled) return;
    signaled = true;
    log.info({ signal }, 'shutting down');
    // Past the shutdown delay and the longest request, something is stuck.
    const force = setTimeout(() => process.exit(1), options.shutdownDelayMs + options.requestTimeoutMs + options.shutdownWatchTerminationGracePeriodMs + 10_000);
    force.unref();
    if (started) stop(started);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  started = await runServer(options, log);
  if (signaled) stop(started);
}

main().catch((err) => {
  process.stderr.write(`Error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
