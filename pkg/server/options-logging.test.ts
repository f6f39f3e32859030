import { expect } from 'chai';
import { parseOptions } from './options.js';

describe('options: logging', () => {
  it('defaults to text at verbosity 0; -v=3 shows request lines; json on request', () => {
    const base = ['--etcd-servers=http://127.0.0.1:2379'];
    expect(parseOptions(base)).to.include({ loggingFormat: 'text', logLevel: 'info' });
    expect(parseOptions([...base, '--v=3', '--logging-format=json'])).to.include({ loggingFormat: 'json', logLevel: 'debug' });
    expect(() => parseOptions([...base, '--logging-format=xml'])).to.throw('format: Unsupported value: "xml": supported values: "json", "text"');
  });
});
