import { expect } from 'chai';
import { parseOptions } from './options.js';

describe('options: admission plugin flags', () => {
  it('--default-not-ready/unreachable-toleration-seconds default to 300 and must be integers', () => {
    const base = ['--etcd-servers=http://127.0.0.1:2379'];
    expect(parseOptions(base)).to.include({ defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 });
    expect(parseOptions([...base, '--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds', '0']))
      .to.include({ defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 0 });
    expect(() => parseOptions([...base, '--default-not-ready-toleration-seconds=soon'])).to.throw('default-not-ready-toleration-seconds');
  });
});
