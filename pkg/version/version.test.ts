import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { createVersionHandler, platform, versionInfo } from './version.js';

describe('pkg/version', function () {
  it('reports a v1.28 server with every field clients read', function () {
    expect(Object.keys(versionInfo)).to.deep.equal([
      'major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform',
    ]);
    expect(versionInfo.major).to.equal('1');
    expect(versionInfo.minor).to.equal('28');
    expect(versionInfo.gitVersion).to.match(/^v1\.28\.\d+$/);
    expect(versionInfo.gitCommit).to.match(/^[0-9a-f]{40}$/);
    expect(versionInfo.buildDate).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('spells the platform as Go does', function () {
    expect(platform('linux', 'x64')).to.equal('linux/amd64');
    expect(platform('darwin', 'arm64')).to.equal('darwin/arm64');
    expect(platform('win32', 'x64')).to.equal('windows/amd64');
  });

  it('writes /version with Go\'s escapes (upstream: json.MarshalIndent)', async function () {
    const app = new Koa();
    const handler = createVersionHandler({ ...versionInfo, gitVersion: 'v1.28.3+<build>&x' });
    app.use(async (ctx) => { if (!(await handler(ctx))) ctx.status = 404; });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const text = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/version`)).text();
      expect(text).to.include('\n  "gitVersion": "v1.28.3+\\u003cbuild\\u003e\\u0026x",\n');
    } finally {
      server.close();
    }
  });

  it('serves GET /version as indented JSON and ignores other paths', async function () {
    const app = new Koa();
    const handler = createVersionHandler();
    app.use(async (ctx) => {
      if (!(await handler(ctx))) ctx.status = 404;
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/version`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json');
      const text = await res.text();
      expect(text).to.equal(JSON.stringify(versionInfo, null, 2));
      expect(text.startsWith('{\n  "major": "1",\n  "minor": "28",')).to.equal(true);
      expect((await fetch(`${base}/version/x`)).status).to.equal(404);
      expect((await fetch(`${base}/version`, { method: 'POST' })).status).to.equal(404);
    } finally {
      server.close();
    }
  });
});
