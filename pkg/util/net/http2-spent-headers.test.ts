import { expect } from 'chai';
import { connect, createServer, type Http2ServerRequest, type Http2ServerResponse, type IncomingHttpHeaders } from 'node:http2';
import { createServer as createHttp1Server, request as http1Request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shedSentHeaders } from './http2-spent-headers.js';

describe('shedSentHeaders (HTTP/2 compat state of a sent head)', () => {
  it('drops the response\'s header dictionaries and the raw header list once the head is out; the stream goes on, trailers and all', async () => {
    const seen: Record<string, unknown> = {};
    const server = createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
      seen.before = shedSentHeaders(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      seen.shed = shedSentHeaders(req, res);
      seen.header = res.getHeader('content-type');
      seen.sentHeaders = Boolean(res.stream.sentHeaders);
      seen.requestHeader = req.headers['x-probe'];
      seen.rawHeaders = req.rawHeaders.length;
      try { res.setHeader('X-Late', '1'); } catch (err) { seen.late = (err as { code?: string }).code; }
      // The body arrives after the shedding, then the client's trailers; the answer streams on.
      req.on('data', () => undefined);
      req.on('end', () => {
        seen.trailers = req.trailers['x-trailer'];
        res.write('{"a":1}\n');
        setTimeout(() => res.end('{"b":2}\n'), 20);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = client.request({ ':method': 'POST', ':path': '/', 'x-probe': 'kept' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'x-trailer': 'sent' }));
      stream.end('body');
      let head: IncomingHttpHeaders = {};
      stream.on('response', (h) => { head = h; });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => { body += c; });
      await new Promise((r) => stream.on('close', r));
      expect(head[':status']).to.equal(200);
      expect(head['content-type']).to.equal('application/json');
      expect(body).to.equal('{"a":1}\n{"b":2}\n');
      expect(seen).to.deep.equal({
        before: false, shed: true, header: undefined, sentHeaders: true, requestHeader: 'kept', rawHeaders: 0,
        late: 'ERR_HTTP2_HEADERS_SENT', trailers: 'sent',
      });
    } finally {
      client.close();
      server.close();
    }
  });

  it('leaves an HTTP/1.1 response alone', async () => {
    let shed: boolean | undefined;
    const server = createHttp1Server((req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('Content-Type', 'text/plain');
      res.flushHeaders();
      shed = shedSentHeaders(req as unknown as Http2ServerRequest, res as unknown as Http2ServerResponse);
      res.end(`${String(res.getHeader('content-type'))} ${req.rawHeaders.length > 0}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const text = await new Promise<string>((resolve, reject) => {
        http1Request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
          let b = '';
          res.on('data', (c: Buffer) => { b += c.toString(); });
          res.on('end', () => resolve(b));
        }).on('error', reject).end();
      });
      expect(shed).to.equal(false);
      expect(text).to.equal('text/plain true');
    } finally {
      server.close();
    }
  });
});
