import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RotatingFile } from './rotating-file.js';

describe('audit log rotation (--audit-log-maxsize/maxbackup/compress)', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'auditrot-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const line = `${'x'.repeat(300 * 1024 - 1)}\n`;

  it('rotates before a write would pass maxsize and keeps maxbackup old files', async () => {
    const f = new RotatingFile(join(dir, 'audit.log'), { maxSizeMB: 1, maxBackups: 2, maxAgeDays: 0, compress: false });
    for (let i = 0; i < 12; i++) {
      f.write(line);
      if (i % 3 === 2) await new Promise((r) => setTimeout(r, 5)); // distinct backup names
    }
    f.close();
    const files = readdirSync(dir).sort();
    expect(files).to.include('audit.log');
    const backups = files.filter((n) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(n));
    expect(backups).to.have.length(2);
    expect(readFileSync(join(dir, 'audit.log')).length).to.be.at.most(1024 * 1024);
  });

  it('gzips rotated files with compress', () => {
    const f = new RotatingFile(join(dir, 'audit.log'), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: true });
    for (let i = 0; i < 4; i++) f.write(line);
    f.close();
    const gz = readdirSync(dir).filter((n) => n.endsWith('.log.gz'));
    expect(gz).to.have.length(1);
    expect(gunzipSync(readFileSync(join(dir, gz[0]!))).toString().split('\n').filter(Boolean)).to.have.length(3);
  });

  it('refuses a single write larger than maxsize', () => {
    const f = new RotatingFile(join(dir, 'audit.log'), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
    expect(() => f.write('y'.repeat(1024 * 1024 + 1))).to.throw(/exceeds maximum file size/);
    f.close();
  });
});
