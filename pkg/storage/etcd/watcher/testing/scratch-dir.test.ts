import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { makeScratchDir } from './scratch-dir.js';

describe('pkg/storage/etcd/watcher/testing/scratch-dir', () => {
  it('names a new dir after its owner and removes the dirs of its kind whose owner has gone, keeping live owners\' and other kinds\'', () => {
    const kind = `scratch-test-${process.pid}-`;
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const first = makeScratchDir(kind);
    const root = dirname(first);
    expect(first.slice(root.length + 1)).to.match(new RegExp(`^${kind}${process.pid}-`));
    const deadOwners = join(root, `${kind}${deadPid}-abcdef`);
    const otherKind = join(root, `other-${kind}${deadPid}-abcdef`);
    mkdirSync(join(deadOwners, 'member'), { recursive: true });
    mkdirSync(otherKind);
    try {
      const second = makeScratchDir(kind);
      expect(existsSync(deadOwners), 'a dead owner\'s dir').to.equal(false);
      expect(existsSync(first), 'this process\'s earlier dir').to.equal(true);
      expect(existsSync(otherKind), 'another kind').to.equal(true);
      rmSync(second, { recursive: true });
    } finally {
      for (const d of [first, deadOwners, otherKind]) rmSync(d, { recursive: true, force: true });
    }
  });
});
