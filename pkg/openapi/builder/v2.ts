// The Swagger 2.0 document served at /openapi/v2.
import type { DefinitionSource } from './definition-source.js';
import { definitionsFor, referencedDefinitions, type JSONObject } from './definitions.js';
import { renderPaths, type OperationSpec, type ParamSpec, type PathSpec } from './paths.js';

export interface DocInfo {
  title: string;
  version: string;
}

function param(p: ParamSpec): JSONObject {
  if (p.in === 'body') {
    return { in: 'body', name: p.name, ...(p.required ? { required: true } : {}), schema: { $ref: `#/definitions/${p.ref}` } };
  }
  return { in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.type, uniqueItems: true };
}

function operation(op: OperationSpec): JSONObject {
  const responses: JSONObject = {};
  for (const r of op.responses) {
    const schema = r.plain ? { type: 'string' } : r.ref ? { $ref: `#/definitions/${r.ref}` } : undefined;
    responses[r.code] = schema ? { description: r.description, schema } : { description: r.description };
  }
  const out: JSONObject = {
    consumes: op.consumes,
    operationId: op.operationId,
    produces: op.produces,
    responses,
    schemes: ['https'],
    tags: [op.tag],
  };
  if (op.params.length) out.parameters = op.params.map(param);
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk) out['x-kubernetes-group-version-kind'] = { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
  return out;
}

/** Definition names every operation of `paths` refers to. */
export function rootRefs(paths: PathSpec[], defs: DefinitionSource): string[] {
  const refs: string[] = [];
  for (const p of paths) {
    for (const op of p.ops) {
      for (const prm of [...p.params, ...op.params]) if (prm.ref) refs.push(prm.ref);
      for (const r of op.responses) if (r.ref) refs.push(r.ref);
    }
  }
  return refs.filter((r) => defs.has(r));
}

export function buildV2(paths: PathSpec[], info: DocInfo, defs: DefinitionSource): JSONObject {
  const outPaths = renderPaths(paths, operation, param);
  return {
    definitions: definitionsFor(referencedDefinitions(rootRefs(paths, defs), defs, false), false, defs),
    info: { title: info.title, version: info.version },
    paths: outPaths,
    security: [{ BearerToken: [] }],
    securityDefinitions: {
      BearerToken: { description: 'Bearer token in the Authorization header', in: 'header', name: 'authorization', type: 'apiKey' },
    },
    swagger: '2.0',
  };
}
