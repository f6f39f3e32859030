// The floor of the CRUD benchmark: a bare Node.js HTTPS server (keep-alive, client
// certificates) that turns each ConfigMap request into the same etcd calls as our server
// makes (create = one txn; get = one range; update = one txn on the mod revision; delete =
// a range, then a txn; a JSON merge patch = a range, the merge, then a txn on the mod
// revision), with one JSON parse and one JSON serialize per object, and nothing
// else: no authentication beyond TLS, no authorization, admission, defaulting, validation,
// managed fields, watch cache or metrics. What it reaches on this machine is what any
// apiserver written this way (Node.js, etcd3's gRPC client, HTTPS) can reach at most;
// crud.ts runs it beside the real server so its ratio to raw etcd sits in the same table.
// With --design it also pays what this project's design and upstream's etcd layout make
// every replica pay, and nothing more: objects stored in upstream's protobuf encoding
// (our codec) and read back through it, and a watch of its prefix feeding an in-memory
// copy of every object (the cache that design's reads and watches are served from,
// decoding each write's event as it arrives). What it costs over the bare floor is the
// part of a replica's CPU no API logic can win back.
// Run: node dist/hack/bench/floor-server.js <etcdEndpoint> <keyPrefix> <certFile> <keyFile> <caFile> [--design]
import { readFileSync } from 'node:fs';
import { createServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Etcd3 } from 'etcd3';
import { decodeFromStorage, encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

const [endpoint, prefix, certFile, keyFile, caFile, mode] = process.argv.slice(2);
const design = mode === '--design';
if (!endpoint || !prefix || !certFile || !keyFile || !caFile) {
  process.stderr.write('usage: floor-server <etcdEndpoint> <keyPrefix> <certFile> <keyFile> <caFile>\n');
  process.exit(2);
}
const etcd = new Etcd3({ hosts: endpoint });
type Obj = { metadata: Record<string, unknown> } & Record<string, unknown>;

function body(req: IncomingMessage): Promise<Obj> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => { try { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj); } catch (err) { reject(err); } });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, code: number, obj: unknown): void {
  const text = JSON.stringify(obj);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const withVersion = (value: Buffer, rev: string): Obj => {
  if (design) return decodeFromStorage(value, rev) as Obj;
  const obj = JSON.parse(value.toString('utf8')) as Obj;
  obj.metadata.resourceVersion = rev;
  return obj;
};
const stored = (obj: Obj): Buffer => (design
  ? encodeForStorage(obj as KubeObject, 'application/vnd.kubernetes.protobuf')
  : Buffer.from(JSON.stringify(obj)));

/** --design: every object under the prefix, as the watch of it last said. */
const cache = new Map<string, KubeObject>();
if (design) {
  void etcd.watch().prefix(prefix!).create().then((w) => {
    w.on('put', (kv) => { cache.set(kv.key.toString(), decodeFromStorage(kv.value, kv.mod_revision)); });
    w.on('delete', (kv) => { cache.delete(kv.key.toString()); });
  });
}

/** RFC 7386: objects merge key by key, null removes, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // /api/v1/namespaces/<ns>/configmaps[/<name>]
  const parts = (req.url ?? '').split('?')[0]!.split('/');
  const ns = parts[4];
  const name = parts[6];
  if (parts[5] !== 'configmaps' || !ns) return send(res, 404, { kind: 'Status', code: 404 });
  if (req.method === 'POST') {
    const obj = await body(req);
    const key = Buffer.from(`${prefix}${ns}/${String(obj.metadata['name'])}`);
    obj.metadata['uid'] = crypto.randomUUID();
    obj.metadata['creationTimestamp'] = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const r = await etcd.kv.txn({ compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key, value: stored(obj) } }], failure: [] });
    if (!r.succeeded) return send(res, 409, { kind: 'Status', code: 409 });
    obj.metadata['resourceVersion'] = r.header.revision;
    return send(res, 201, obj);
  }
  if (!name) return send(res, 405, { kind: 'Status', code: 405 });
  const key = Buffer.from(`${prefix}${ns}/${name}`);
  if (req.method === 'GET') {
    const kv = (await etcd.kv.range({ key })).kvs[0];
    return kv ? send(res, 200, withVersion(kv.value, kv.mod_revision)) : send(res, 404, { kind: 'Status', code: 404 });
  }
  if (req.method === 'PUT') {
    const obj = await body(req);
    const rev = String(obj.metadata['resourceVersion']);
    delete obj.metadata['resourceVersion'];
    const r = await etcd.kv.txn({ compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: rev }], success: [{ request_put: { key, value: stored(obj) } }], failure: [] });
    if (!r.succeeded) return send(res, 409, { kind: 'Status', code: 409 });
    obj.metadata['resourceVersion'] = r.header.revision;
    return send(res, 200, obj);
  }
  if (req.method === 'PATCH') {
    const patch = await body(req);
    const kv = (await etcd.kv.range({ key })).kvs[0];
    if (!kv) return send(res, 404, { kind: 'Status', code: 404 });
    const obj = mergePatch(design ? decodeFromStorage(kv.value, 0) : JSON.parse(kv.value.toString('utf8')), patch) as Obj;
    if (design) delete obj.metadata['resourceVersion'];
    const r = await etcd.kv.txn({ compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: kv.mod_revision }], success: [{ request_put: { key, value: stored(obj) } }], failure: [] });
    if (!r.succeeded) return send(res, 409, { kind: 'Status', code: 409 });
    obj.metadata['resourceVersion'] = r.header.revision;
    return send(res, 200, obj);
  }
  if (req.method === 'DELETE') {
    const kv = (await etcd.kv.range({ key })).kvs[0];
    if (!kv) return send(res, 404, { kind: 'Status', code: 404 });
    const r = await etcd.kv.txn({ compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: kv.mod_revision }], success: [{ request_delete_range: { key } }], failure: [] });
    if (!r.succeeded) return send(res, 409, { kind: 'Status', code: 409 });
    return send(res, 200, withVersion(kv.value, kv.mod_revision));
  }
  return send(res, 405, { kind: 'Status', code: 405 });
}

const options: ServerOptions = { cert: readFileSync(certFile), key: readFileSync(keyFile), ca: readFileSync(caFile), requestCert: true, rejectUnauthorized: true };
const server = createServer(options, (req, res) => { handle(req, res).catch((err: Error) => send(res, 500, { kind: 'Status', code: 500, message: err.message })); });
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`floor: listening on ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => { server.close(); etcd.close(); process.exit(0); });
