// kube-apiserver's command: flags -> help, version, or options -> run one replica until a signal.
import { createLogger } from '../pkg/endpoints/filters/logging.js';
import { flagSections, parseCommand, type Command } from '../pkg/server/options.js';
import { helpText } from '../pkg/server/options/help.js';
import type { RunningServer } from '../pkg/server/server.js';
import { goVersionStruct, versionInfo } from '../pkg/version/index.js';

let markServing: () => void = () => {};
/** Resolves once the server is up and its post-start hooks are done; never for -h or --version. The launcher (launch.ts) waits for it. */
export const serving = new Promise<void>((resolve) => { markServing = resolve; });

async function main(): Promise<void> {
  let command: Command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (err) {
    // Upstream (component-base's cli.Run) prints flag and validation errors so, without usage.
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  if (command.action === 'help') {
    process.stdout.write(helpText(flagSections));
    return;
  }
  if (command.action === 'version') {
    process.stdout.write(command.raw ? `${goVersionStruct(versionInfo)}\n` : `Kubernetes ${versionInfo.gitVersion}\n`);
    return;
  }
  for (const w of command.warnings) process.stderr.write(`${w}\n`);
  const { options } = command;
  const log = createLogger(options.logLevel, undefined, options.loggingFormat);
  // Handlers go in before the server starts: readyz can answer before runServer returns,
  // and a SIGTERM then must still shut down gracefully rather than kill the process.
  let signaled = false;
  let started: RunningServer | undefined;
  // Ends a start still waiting for etcd: nothing was served but health, nothing to drain.
  const abortStart = new AbortController();
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
    else abortStart.abort();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // Loaded only to run: --help and --version (envtest's probe) answer without it.
  const { runServer } = await import('../pkg/server/server.js');
  const { StartupAborted } = await import('../pkg/server/storage.js');
  try {
    started = await runServer(options, log, abortStart.signal);
  } catch (err) {
    if (!(err instanceof StartupAborted)) throw err;
    log.info('stopped before etcd answered');
    process.exit(0);
  }
  if (signaled) stop(started);
  else markServing();
}

main().catch((err) => {
  process.stderr.write(`Error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
