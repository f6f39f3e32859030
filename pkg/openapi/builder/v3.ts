// The OpenAPI 3.0 documents served at /openapi/v3/<key>, one per group-version (and one
// each for /api, /apis, /apis/<group> and /version), as upstream splits them.
import type { DefinitionSource } from './definition-source.js';
import { definitionsFor, referencedDefinitions, type JSONObject } from './definitions.js';
import { renderPaths, type OperationSpec, type ParamSpec, type PathSpec } from './paths.js';
import { rootRefs, type DocInfo } from './v2.js';

/** `info` of the documents of group-versions served only by custom resources, as upstream's CRD builder titles them. */
export const CRD_DOC_INFO: DocInfo = { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function param(p: ParamSpec): JSONObject {
  return { in: p.in, name: p.name, ...(p.required ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}

function content(media: string[], schema: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const m of media) out[m] = { schema };
  return out;
}

function operation(op: OperationSpec): JSONObject {
  const responses: JSONObject = {};
  for (const r of op.responses) {
    const schema = r.plain ? { type: 'string' } : r.ref ? ref(r.ref) : undefined;
    responses[r.code] = schema ? { content: content(op.produces, schema), description: r.description } : { description: r.description };
  }
  const out: JSONObject = { operationId: op.operationId, responses, tags: [op.tag] };
  const body = op.params.find((p) => p.in === 'body');
  const params = op.params.filter((p) => p.in !== 'body');
  if (params.length) out.parameters = params.map(param);
  if (body?.ref) out.requestBody = { content: content(op.consumes, ref(body.ref)) };
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk) out['x-kubernetes-group-version-kind'] = { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
  return out;
}

function buildDoc(paths: PathSpec[], info: DocInfo, defs: DefinitionSource, custom: boolean): JSONObject {
  const outPaths = renderPaths(paths, operation, param);
  const schemas = definitionsFor(referencedDefinitions(rootRefs(paths, defs), defs, true), true, defs);
  if (custom) info = CRD_DOC_INFO;
  return {
    // Upstream's CRD documents declare no security schemes.
    components: custom ? { schemas } : {
      schemas,
      securitySchemes: {
        BearerToken: { description: 'Bearer token in the Authorization header', in: 'header', name: 'authorization', type: 'apiKey' },
      },
    },
    info: { title: info.title, version: info.version },
    openapi: '3.0.0',
    paths: outPaths,
  };
}

/**
 * One document per v3 key ("api/v1", "apis/apps/v1", "apis", "version", ...);
 * `customKeys` are those served only by custom resources.
 */
export function buildV3(paths: PathSpec[], info: DocInfo, defs: DefinitionSource, customKeys: ReadonlySet<string> = new Set()): Map<string, JSONObject> {
  const byKey = new Map<string, PathSpec[]>();
  for (const p of paths) {
    const list = byKey.get(p.docKey) ?? [];
    list.push(p);
    byKey.set(p.docKey, list);
  }
  const out = new Map<string, JSONObject>();
  for (const key of [...byKey.keys()].sort()) out.set(key, buildDoc(byKey.get(key) as PathSpec[], info, defs, customKeys.has(key)));
  return out;
}
