import { expect } from 'chai';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import { configmaps } from '../../registry/core/configmaps/index.js';
import type { HandlerScope } from './scope.js';
import { decodeStrictUpdateBody } from './strict-decode.js';

describe('endpoints/handlers: an update body decoded again for a retried pass', () => {
  const scopeFor = (body: string, contentType: string, warnings: string[]): HandlerScope => {
    const req = Object.assign(Readable.from([Buffer.from(body)]), { headers: { 'content-length': String(Buffer.byteLength(body)) } });
    const ctx = { req, state: {}, get: (h: string) => (h.toLowerCase() === 'content-type' ? contentType : ''), append: (_h: string, v: string) => warnings.push(v) };
    return { ctx: ctx as unknown as Koa.Context, def: configmaps } as unknown as HandlerScope;
  };

  for (const [what, contentType, body] of [
    ['JSON', 'application/json', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"b"}},"data":{"k":"v"},"extra":1}'],
    ['YAML', 'application/yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    a: b\ndata:\n  k: v\nextra: 1\n'],
  ] as const) {
    it(`gives a new object equal to the first decode, whatever the first pass changed, warning once (${what})`, async () => {
      const warnings: string[] = [];
      const { obj, again } = await decodeStrictUpdateBody(scopeFor(body, contentType, warnings), 'Warn');
      const first = structuredClone(obj);
      expect(first).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { k: 'v' } });
      expect(warnings).to.have.length(1);
      obj.metadata.labels!.a = 'changed';
      (obj.data as Record<string, string>).k = 'changed';
      obj.metadata.resourceVersion = '5';
      const second = again();
      expect(second).to.deep.equal(first);
      expect(second).to.not.equal(obj);
      expect(again()).to.not.equal(second);
      expect(warnings).to.have.length(1);
    });
  }
});
