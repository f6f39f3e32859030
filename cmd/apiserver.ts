// kube-apiserver's command: flags -> options -> run one replica until a signal.
import { createLogger } from '../pkg/endpoints/filters/logging.js';
import { parseOptions } from '../pkg/server/options.js';
import { runServer } from '../pkg/server/server.js';

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const log = createLogger(options.logLevel, undefined, options.loggingFormat);
  const server = await runServer(options, log);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.stop().then(() => process.exit(0), (err) => { log.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
