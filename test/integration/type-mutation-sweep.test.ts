// Every built-in kind upstream recorded (../shared/fixtures/surface/objects), created again
// with one field at a time set to a value of the wrong JSON type: null, a number for a
// string, a string for a number or a boolean, a list for an object, an object for a list,
// and a null inside each list, sent as a create, an update and each patch type of the
// stored object. Upstream's typed decoder refuses most of these (400 BadRequest, 422
// Invalid from validation or a patch) and zeroes the nulls; whatever it answers, it is
// never a 5xx. So each answer must be a Status with a 4xx code that matches the HTTP
// status, or a 2xx. Every mutated write is a dry run: only the fixtures are stored.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, startReplicas, type Cluster } from '../harness/index.js';
import { readSurface, surfaceDir } from '../harness/surface-fixtures.js';
import { isPlainObject } from '../../pkg/runtime/object.js';

type Json = Record<string, unknown>;
type Path = Array<string | number>;

/** Each leaf and each container of `value` (a list's first item), with its path; apiVersion and kind stay. */
function* positions(value: unknown, path: Path = []): Generator<[Path, unknown]> {
  if (path.length > 0) yield [path, value];
  if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) {
    if (path.length === 0 && (k === 'apiVersion' || k === 'kind')) continue;
    yield* positions(v, [...path, k]);
  }
  if (Array.isArray(value)) for (let i = 0; i < Math.min(1, value.length); i++) yield* positions(value[i], [...path, i]);
}

/** The wrong-typed stand-ins for a value at a position, the likeliest to find a fault first. */
function mutations(value: unknown): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [['null', null]];
  if (typeof value === 'string') out.push(['number', 7], ['object', { a: 1 }]);
  else if (typeof value === 'number') out.push(['string', 'x'], ['float', 1.5], ['bool', true]);
  else if (typeof value === 'boolean') out.push(['string', 'x'], ['number', 1]);
  else if (Array.isArray(value)) out.push(['null item', [...value, null]], ['object', { a: 1 }], ['string', 'x'], ['number item', [...value, 7]]);
  else if (isPlainObject(value)) out.push(['list', [1]], ['string', 'x'], ['number', 7]);
  return out;
}

/** Upstream's v1.28 swagger definitions (../shared/upstream-openapi): the types of fields no fixture sets. */
interface Schema { type?: string; $ref?: string; properties?: Record<string, Schema>; items?: Schema; 'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }> }
function swaggerDefinitions(): Record<string, Schema> {
  const file = join(surfaceDir(), '..', '..', 'upstream-openapi', 'swagger.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { definitions: Record<string, Schema> }).definitions;
}

/**
 * The fields `schema` declares that `value` leaves out, under each object `value` has (a
 * list's first item), with their schemas; metadata and status are left to the first case.
 */
function* absentFields(defs: Record<string, Schema>, schema: Schema, value: unknown, path: Path = []): Generator<[Path, Schema]> {
  const s = schema.$ref ? defs[schema.$ref.slice('#/definitions/'.length)] ?? {} : schema;
  if (Array.isArray(value) && s.items && value.length > 0) yield* absentFields(defs, s.items, value[0], [...path, 0]);
  if (!isPlainObject(value) || !s.properties) return;
  for (const [k, sub] of Object.entries(s.properties)) {
    if (path.length === 0 && (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind')) continue;
    if (k in value) yield* absentFields(defs, sub, value[k], [...path, k]);
    else yield [[...path, k], sub];
  }
}

/** Stand-ins for an absent field: null, its type's empty or odd forms, and a wrong type. */
function absentMutations(defs: Record<string, Schema>, schema: Schema): Array<[string, unknown]> {
  const s = schema.$ref ? defs[schema.$ref.slice('#/definitions/'.length)] ?? {} : schema;
  if (s.type === 'array') return [['null', null], ['[null]', [null]], ['[{}]', [{}]], ['string', 'x']];
  if (s.type === 'string') return [['null', null], ['number', 7], ['object', {}]];
  if (s.type === 'integer' || s.type === 'number') return [['null', null], ['string', 'x'], ['negative', -1]];
  if (s.type === 'boolean') return [['null', null], ['string', 'x']];
  if (s.properties) return [['null', null], ['{}', {}], ['string', 'x'], ['list', [1]]];
  return [['null', null], ['number', 7]];
}

/** `obj` with `value` at `path`; undefined when `obj` has no container there (the server rewrote it). */
function withValue(obj: Json, path: Path, value: unknown): Json | undefined {
  const copy = structuredClone(obj);
  let at: Record<string | number, unknown> = copy;
  for (const p of path.slice(0, -1)) {
    at = at[p] as Record<string | number, unknown>;
    if (typeof at !== 'object' || at === null) return undefined;
  }
  at[path[path.length - 1]!] = value;
  return copy;
}

/** A merge patch setting `path` (keys only: a merge patch cannot name a list item), else undefined. */
function mergePatchAt(path: Path, value: unknown): Json | undefined {
  if (path.some((p) => typeof p === 'number')) return undefined;
  let patch: unknown = value;
  for (const p of [...path].reverse()) patch = { [p]: patch };
  return patch as Json;
}

const pointer = (path: Path): string => `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** Runs `jobs` `width` at a time. */
async function inPool(jobs: Array<() => Promise<void>>, width: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next < jobs.length) await jobs[next++]!(); }));
}

const groupVersionPath = (gv: string): string => (gv === 'v1' ? '/api/v1' : `/apis/${gv.replace('_', '/')}`);

/** The fixtures, the objects others refer to first (as the surface sweep orders them). */
function fixtures(): Array<{ gv: string; kind: string; body: Json }> {
  const first = ['v1.Namespace.', 'v1.ServiceAccount.', 'v1.Node.', 'scheduling.k8s.io_v1.PriorityClass.'];
  const rank = (f: string): number => { const at = first.findIndex((p) => f.startsWith(p)); return at < 0 ? first.length : at; };
  return readdirSync(join(surfaceDir(), 'objects')).filter((f) => f.endsWith('.request.json')).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((f) => {
    const base = f.slice(0, -'.request.json'.length);
    const gvEnd = base.startsWith('v1.') ? 2 : base.indexOf('.', base.indexOf('_'));
    const kindEnd = base.indexOf('.', gvEnd + 1);
    return { gv: base.slice(0, gvEnd), kind: base.slice(gvEnd + 1, kindEnd < 0 ? undefined : kindEnd), body: readSurface('objects', f) };
  });
}

describe('wrong-typed fields in every built-in kind never answer 5xx', function () {
  this.timeout(900_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--service-cluster-ip-range=10.96.0.0/16', '--controllers=-serviceaccount'] });
  });
  after(async () => { await cluster?.stop(); });

  it('answers each mutation, as a create, an update and a JSON, merge and strategic merge patch, with a 2xx or a 4xx Status', async () => {
    const call = (method: string, url: string, body: unknown, contentType = 'application/json') =>
      request<Json>(`${cluster.urls[0]}${url}`, { ...cluster.credentialsFor(), method, body: JSON.stringify(body), headers: { 'Content-Type': contentType } });
    const plurals = new Map<string, { plural: string; namespaced: boolean }>();
    const bad: string[] = [];
    const sent = { create: 0, update: 0, patch: 0 };
    const codes = new Map<string, number>();
    const judge = (what: string, res: { status: number; body: Json }): void => {
      const tally = `${what.split(' ').slice(0, what.startsWith('create') || what.startsWith('update') ? 1 : 2).join(' ')} ${res.status}`;
      codes.set(tally, (codes.get(tally) ?? 0) + 1);
      const ok = (res.status >= 200 && res.status < 300) || (res.status >= 400 && res.status < 500 && res.body?.kind === 'Status' && res.body.code === res.status);
      if (!ok) bad.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 240)}`);
    };
    for (const { gv, kind, body } of fixtures()) {
      if (!plurals.has(`${gv}/${kind}`)) {
        const list = await request<{ resources: Array<{ name: string; kind: string; namespaced: boolean }> }>(`${cluster.urls[0]}${groupVersionPath(gv)}`, cluster.credentialsFor());
        for (const r of list.body.resources) if (!r.name.includes('/')) plurals.set(`${gv}/${r.kind}`, { plural: r.name, namespaced: r.namespaced });
      }
      const r = plurals.get(`${gv}/${kind}`)!;
      const collection = `${groupVersionPath(gv)}${r.namespaced ? '/namespaces/fixtures' : ''}/${r.plural}`;
      const created = await call('POST', collection, body);
      const stored = created.status === 201 ? created.body : undefined;
      const item = `${collection}/${String((body.metadata as Json).name)}?dryRun=All`;
      const jobs: Array<() => Promise<void>> = [];
      for (const [path, value] of positions(body)) {
        for (const [n, [what, replacement]] of mutations(value).entries()) {
          const at = `${kind} ${path.join('.')} = ${what}`;
          jobs.push(async () => { sent.create++; judge(`create ${at}`, await call('POST', `${collection}?dryRun=All`, withValue(body, path, replacement))); });
          // Updates and patches take the null and the first wrong type: they share the create's decoding after that.
          if (!stored || n > 1) continue;
          const updated = withValue(stored, path, replacement);
          if (updated) jobs.push(async () => { sent.update++; judge(`update ${at}`, await call('PUT', item, updated)); });
          jobs.push(async () => {
            sent.patch++;
            judge(`json patch ${at}`, await call('PATCH', item, [{ op: 'add', path: pointer(path), value: replacement }], 'application/json-patch+json'));
          });
          const merge = mergePatchAt(path, replacement);
          if (!merge) continue;
          jobs.push(async () => { sent.patch++; judge(`merge patch ${at}`, await call('PATCH', item, merge, 'application/merge-patch+json')); });
          jobs.push(async () => { sent.patch++; judge(`strategic merge patch ${at}`, await call('PATCH', item, merge, 'application/strategic-merge-patch+json')); });
        }
      }
      await inPool(jobs, 8);
    }
    if (process.env.SWEEP_TALLY) console.log([...codes].sort().join('\n'));
    expect(sent.create).to.be.greaterThan(1000);
    expect(sent.update).to.be.greaterThan(500);
    expect(sent.patch).to.be.greaterThan(1000);
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });
  it('answers each wrong or empty value of a field the fixtures leave out, as a create, with a 2xx or a 4xx Status', async () => {
    // The first case creates the fixtures' namespace; this one may run alone (a 409 when it exists).
    await request(`${cluster.urls[0]}/api/v1/namespaces`, { ...cluster.credentialsFor(), method: 'POST', body: { metadata: { name: 'fixtures' } } });
    const defs = swaggerDefinitions();
    const byKind = new Map<string, Schema>();
    for (const d of Object.values(defs)) for (const gvk of d['x-kubernetes-group-version-kind'] ?? []) {
      byKind.set(`${gvk.group === '' ? 'v1' : `${gvk.group}_${gvk.version}`}/${gvk.kind}`, d);
    }
    const plurals = new Map<string, { plural: string; namespaced: boolean }>();
    const bad: string[] = [];
    let sent = 0;
    for (const { gv, kind, body } of fixtures()) {
      const schema = byKind.get(`${gv}/${kind}`);
      if (!schema) continue;
      if (!plurals.has(`${gv}/${kind}`)) {
        const list = await request<{ resources: Array<{ name: string; kind: string; namespaced: boolean }> }>(`${cluster.urls[0]}${groupVersionPath(gv)}`, cluster.credentialsFor());
        for (const r of list.body.resources) if (!r.name.includes('/')) plurals.set(`${gv}/${r.kind}`, { plural: r.name, namespaced: r.namespaced });
      }
      const r = plurals.get(`${gv}/${kind}`)!;
      const url = `${cluster.urls[0]}${groupVersionPath(gv)}${r.namespaced ? '/namespaces/fixtures' : ''}/${r.plural}?dryRun=All`;
      const jobs: Array<() => Promise<void>> = [];
      for (const [path, fieldSchema] of absentFields(defs, schema, body)) {
        for (const [what, replacement] of absentMutations(defs, fieldSchema)) {
          jobs.push(async () => {
            sent++;
            const res = await request<Json>(url, { ...cluster.credentialsFor(), method: 'POST', body: withValue(body, path, replacement) });
            const ok = (res.status >= 200 && res.status < 300) || (res.status >= 400 && res.status < 500 && res.body?.kind === 'Status' && res.body.code === res.status);
            if (!ok) bad.push(`${kind} ${path.join('.')} = ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 240)}`);
          });
        }
      }
      await inPool(jobs, 8);
    }
    expect(sent).to.be.greaterThan(1000);
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });
});
