// The audit log file with upstream's rotation (lumberjack): rotate before a write would
// pass --audit-log-maxsize megabytes, keep at most --audit-log-maxbackup old files
// (0: all), remove those older than --audit-log-maxage days (0: never), gzip rotated
// files with --audit-log-compress. Backups are named <name>-<UTC time><ext>.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface RotationOptions { maxSizeMB: number; maxBackups: number; maxAgeDays: number; compress: boolean }

const backupTime = (d: Date): string => d.toISOString().replace(/:/g, '-').replace('Z', '');

export class RotatingFile {
  private fd = -1;
  private size = 0;

  constructor(private readonly path: string, private readonly o: RotationOptions) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.open();
  }

  /** Appends synchronously: blocking mode promises the line is written when this returns. */
  write(text: string): void {
    const buf = Buffer.from(text);
    const max = this.o.maxSizeMB * 1024 * 1024;
    if (max > 0 && buf.length > max) throw new Error(`write length ${buf.length} exceeds maximum file size ${max}`);
    if (max > 0 && this.size + buf.length > max) this.rotate();
    writeSync(this.fd, buf);
    this.size += buf.length;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private open(): void {
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.close();
    const ext = extname(this.path);
    const backup = join(dirname(this.path), `${basename(this.path, ext)}-${backupTime(new Date())}${ext}`);
    renameSync(this.path, backup);
    if (this.o.compress) {
      writeFileSync(`${backup}.gz`, gzipSync(readFileSync(backup)), { mode: 0o600 });
      unlinkSync(backup);
    }
    this.open();
    this.prune();
  }

  private prune(): void {
    const dir = dirname(this.path);
    const ext = extname(this.path);
    const prefix = `${basename(this.path, ext)}-`;
    const backups = readdirSync(dir)
      .filter((f) => f.startsWith(prefix) && (f.endsWith(ext) || f.endsWith(`${ext}.gz`)))
      .map((f) => ({ path: join(dir, f), mtime: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    const cutoff = Date.now() - this.o.maxAgeDays * 24 * 3600 * 1000;
    backups.forEach((b, i) => {
      const tooMany = this.o.maxBackups > 0 && i >= this.o.maxBackups;
      const tooOld = this.o.maxAgeDays > 0 && b.mtime < cutoff;
      if ((tooMany || tooOld) && existsSync(b.path)) unlinkSync(b.path);
    });
  }
}
