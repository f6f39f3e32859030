// Upstream's "logs" flag set (component-base logs options): klog's verbosity and format.
import { levelForVerbosity, type LogFormat, type LogLevel } from '../../endpoints/filters/logging.js';
import type { FlagSection, FlagValues } from '../flags.js';

export interface LogsOptions {
  /** pino level from klog's -v: request lines (upstream's -v=3) are `debug`. */
  logLevel: LogLevel;
  /** --logging-format: text (upstream's default) or json. */
  loggingFormat: LogFormat;
}

export const logsSection: FlagSection<LogsOptions> = {
  name: 'logs',
  flags: [
    { name: 'log-flush-frequency', type: 'duration', default: '5s', usage: 'Longest time between log flushes.', notImplemented: true },
    { name: 'log-json-info-buffer-size', type: 'quantity', usage: '[Alpha] Buffer for info messages with the JSON format and split streams.', notImplemented: true },
    { name: 'log-json-split-stream', type: 'bool', usage: '[Alpha] With the JSON format, info messages to stdout and errors to stderr.', notImplemented: true },
    { name: 'logging-format', type: 'string', default: 'text', usage: 'Log line format: text or json.' },
    { name: 'v', shorthand: 'v', type: 'Level', usage: 'Log verbosity; 3 and above logs every request.' },
    { name: 'vmodule', type: 'pattern=N,...', usage: 'Per-file verbosity: pattern=N, comma separated (text format only).', notImplemented: true },
  ],
  read: (f: FlagValues): LogsOptions => ({ logLevel: levelForVerbosity(f.int('v')), loggingFormat: loggingFormat(f.string('logging-format')) }),
};

/** --logging-format: upstream's component-base accepts text (its default) and json. */
function loggingFormat(value: string | undefined): LogFormat {
  if (value === 'text' || value === 'json') return value;
  throw new Error(`format: Unsupported value: ${JSON.stringify(value)}: supported values: "json", "text"`);
}
