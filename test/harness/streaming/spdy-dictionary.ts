// The zlib dictionary SPDY/3 header blocks are compressed with (draft-mbelshe-httpbis-spdy,
// "Compression"): length-prefixed header names and values, then a run of common text.
// It must match byte for byte or the peer's inflate fails; the test beside it checks its
// size and Adler-32 against the values peers announce in their zlib headers.

const words = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset', 'accept-encoding',
  'accept-language', 'accept-ranges', 'age', 'allow', 'authorization', 'cache-control', 'connection',
  'content-base', 'content-encoding', 'content-language', 'content-length', 'content-location',
  'content-md5', 'content-range', 'content-type', 'date', 'etag', 'expect', 'expires', 'from', 'host',
  'if-match', 'if-modified-since', 'if-none-match', 'if-range', 'if-unmodified-since', 'last-modified',
  'location', 'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer',
  'retry-after', 'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via',
  'warning', 'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url',
  'public', 'set-cookie', 'keep-alive', 'origin',
];

const tail = [
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505',
  '203 Non-Authoritative Information', '204 No Content', '301 Moved Permanently', '400 Bad Request',
  '401 Unauthorized', '403 Forbidden', '404 Not Found', '500 Internal Server Error', '501 Not Implemented',
  '503 Service Unavailable',
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT',
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,',
  'text/javascript,publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.',
].join('');

function build(): Buffer {
  const parts: Buffer[] = [];
  for (const w of words) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(w.length);
    parts.push(len, Buffer.from(w, 'latin1'));
  }
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

export const spdyDictionary: Buffer = build();

export function adler32(buf: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of buf) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
