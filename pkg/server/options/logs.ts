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
    { name: 'logging-format', type: 'string', default: 'text', usage: 'Log line format: text or json.' },
    { name: 'v', shorthand: 'v', type: 'Level', usage: 'Log verbosity; 3 and above logs every request.' },
  ],
  read: (f: FlagValues): LogsOptions => ({ logLevel: levelForVerbosity(f.int('v')), loggingFormat: loggingFormat(f.string('logging-format')) }),
};

/** --logging-format: upstream's component-base accepts text (its default) and json. */
function loggingFormat(value: string | undefined): LogFormat {
  if (value === 'text' || value === 'json') return value;
  throw new Error(`format: Unsupported value: ${JSON.stringify(value)}: supported values: "json", "text"`);
}
