// What a JSON patch that does not apply is answered, byte for byte: upstream's patcher
// wraps every failure of the library (a test that does not match, a missing path or key,
// a bad index, an unknown op) in NewGenericServerResponse(422, "", GroupResource{}, "", ...),
// whose message hides the cause and whose details are set but empty. And a `test` of a
// string compares its text with Go's encoding of the stored string (`<` is \u003c there).
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

const opaque422 = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",'
  + '"message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}\n';

describe('JSON patch answers', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `jpa-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: string, contentType = 'application/json'): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers: { 'Content-Type': contentType } });
  const patch = <T>(name: string, ops: string): Promise<HttpResponse<T>> => call<T>('PATCH', `${cms}/${name}`, ops, 'application/json-patch+json');

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }))).status).to.equal(201);
    const cm = await call('POST', cms, JSON.stringify({ metadata: { name: 'cm' }, data: { k: 'v', html: 'a<b&c>', e: 'é', a: 'A' } }));
    expect(cm.status, cm.text).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('every failure to apply is the same opaque 422, details {} included, and changes nothing', async () => {
    for (const ops of [
      '[{"op":"test","path":"/data/k","value":"other"}]',
      '[{"op":"replace","path":"/data/missing","value":"x"}]',
      '[{"op":"remove","path":"/data/missing"}]',
      '[{"op":"add","path":"/nope/deeper","value":"x"}]',
      '[{"op":"add","path":"/metadata/finalizers/5","value":"x"}]',
      '[{"op":"copy","from":"/data/missing","path":"/data/x"}]',
      '[{"op":"frobnicate","path":"/data/k"}]',
      '[{"op":"add","path":"/data/k2","value":"w"},{"op":"test","path":"/data/k2","value":"x"}]',
    ]) {
      const res = await patch('cm', ops);
      expect(res.status, ops).to.equal(422);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.text, ops).to.equal(opaque422);
    }
    const stored = await call<{ data: Record<string, string> }>('GET', `${cms}/cm`);
    expect(stored.body.data).to.deep.equal({ k: 'v', html: 'a<b&c>', e: 'é', a: 'A' });
  });

  it('a test of a string compares its text with Go\'s encoding of the stored string', async () => {
    const tested = async (path: string, value: string): Promise<number> =>
      (await patch('cm', `[{"op":"test","path":"${path}","value":${value}},{"op":"add","path":"/data/seen","value":"y"}]`)).status;
    // Go's encoder writes <, & and > escaped and é as it is.
    expect(await tested('/data/html', '"a\\u003cb\\u0026c\\u003e"')).to.equal(200);
    expect(await tested('/data/html', '"a<b&c>"')).to.equal(422);
    expect(await tested('/data/e', '"é"')).to.equal(200);
    expect(await tested('/data/e', '"\\u00e9"')).to.equal(422);
    expect(await tested('/data/a', '"A"')).to.equal(200);
    expect(await tested('/data/a', '"\\u0041"')).to.equal(422);
    // Inside an object too; its keys are decoded, so an escaped key is the same key.
    const res = await patch('cm', '[{"op":"test","path":"/data","value":{"\\u006b":"v","html":"a\\u003cb\\u0026c\\u003e","e":"é","a":"A","seen":"y"}}]');
    expect(res.status, res.text).to.equal(200);
    const plain = await patch('cm', '[{"op":"test","path":"/data","value":{"k":"v","html":"a<b&c>","e":"é","a":"A","seen":"y"}}]');
    expect(plain.text).to.equal(opaque422);
  });
});
