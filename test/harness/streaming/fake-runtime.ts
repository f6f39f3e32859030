// The "container" behind the fake kubelet's exec and attach: a few commands it runs
// itself, reading the session's stdin and writing its stdout and stderr, and the v1
// Status the kubelet sends on the error channel once the command is done.
import type { Readable } from 'node:stream';

export interface ContainerIO {
  /** Absent when the client asked for no stdin. */
  stdin?: Readable;
  stdout(data: string | Buffer): void;
  stderr(data: string | Buffer): void;
}

/** An exit code, or a failure to run at all (the runtime's error text). */
export type ProcessResult = { exitCode: number } | { error: string };

async function pipeStdin(io: ContainerIO): Promise<void> {
  if (!io.stdin) return;
  for await (const chunk of io.stdin) io.stdout(chunk as Buffer);
}

/**
 * `sh -c` understands `;`-separated `echo words`, `echo words >&2` and `exit N`, enough
 * for output on both streams and an exit code.
 */
function shell(script: string, io: ContainerIO): ProcessResult {
  for (const stmt of script.split(';').map((s) => s.trim()).filter(Boolean)) {
    const exit = /^exit(?:\s+(\d+))?$/.exec(stmt);
    if (exit) return { exitCode: Number(exit[1] ?? 0) };
    const echo = /^echo(?:\s+(.*?))?(\s*>&2)?$/.exec(stmt);
    if (echo) {
      (echo[2] ? io.stderr : io.stdout)(`${echo[1] ?? ''}\n`);
      continue;
    }
    io.stderr(`sh: ${stmt.split(/\s+/)[0]}: not found\n`);
    return { exitCode: 127 };
  }
  return { exitCode: 0 };
}

/** Runs argv in the fake container. */
export async function runInContainer(argv: string[], io: ContainerIO): Promise<ProcessResult> {
  const [cmd, ...args] = argv;
  switch (cmd) {
    case 'echo': io.stdout(`${args.join(' ')}\n`); return { exitCode: 0 };
    case 'cat': await pipeStdin(io); return { exitCode: 0 };
    case 'true': return { exitCode: 0 };
    case 'false': return { exitCode: 1 };
    case 'sh':
      if (args[0] === '-c' && args.length >= 2) return shell(args[1], io);
      await pipeStdin(io);
      return { exitCode: 0 };
    default:
      return { error: `OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(cmd ?? '')}: executable file not found in $PATH: unknown` };
  }
}

/** attach: the container's main process says hello and echoes stdin until it closes. */
export async function attachToContainer(container: string, io: ContainerIO): Promise<ProcessResult> {
  io.stdout(`attached to ${container}\n`);
  await pipeStdin(io);
  return { exitCode: 0 };
}

/**
 * The error channel's Status (remotecommand v4 and later): Success, NonZeroExitCode with
 * an ExitCode cause (which kubectl turns into its own exit code), or an internal error.
 */
export function exitStatus(result: ProcessResult, argv: string[]): Record<string, unknown> {
  if ('error' in result) {
    const message = `error executing command in container: ${result.error}`;
    return { metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 };
  }
  if (result.exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {}, status: 'Failure',
    message: `command terminated with non-zero exit code: command '${argv.join(' ')}' exited with ${result.exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(result.exitCode) }] },
  };
}
