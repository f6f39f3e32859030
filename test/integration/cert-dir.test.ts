// --cert-dir as upstream reads it: without --tls-cert-file, apiserver.crt/apiserver.key
// there are the serving pair; only when they are absent is a self-signed pair generated
// there, and a later start serves that same pair. (A pair written beforehand, as envtest
// does, is covered by test/e2e/envtest-replay.test.ts.)
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { startTestServer } from '../../pkg/testing/index.js';

function served(url: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(s.getPeerCertificate().raw);
      s.end();
    });
    s.on('error', reject);
  });
}

describe('--cert-dir', function () {
  this.timeout(180_000);
  let dir: string;
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('generates a self-signed pair only when apiserver.crt/.key are absent, and serves it again on the next start', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cert-dir-'));
    const first = await startTestServer({ args: [`--cert-dir=${dir}`] });
    let firstCert: Buffer;
    try {
      expect(existsSync(join(dir, 'apiserver.crt')) && existsSync(join(dir, 'apiserver.key'))).to.equal(true);
      firstCert = await served(first.url);
      expect(firstCert.equals(new X509Certificate(readFileSync(join(dir, 'apiserver.crt'))).raw)).to.equal(true);
    } finally {
      await first.stop();
    }
    const second = await startTestServer({ args: [`--cert-dir=${dir}`] });
    try {
      expect((await served(second.url)).equals(firstCert)).to.equal(true);
    } finally {
      await second.stop();
    }
  });
});
