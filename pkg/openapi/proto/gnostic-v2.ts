// Encodes the served Swagger 2.0 document as a gnostic openapi.v2.Document protobuf,
// the form kubectl and client-go request (Accept:
// application/com.github.proto-openapi.spec.v2@v1.0+protobuf). Vendor extensions are
// carried as YAML text in Any.yaml (JSON is YAML), which is how clients read them back.
import protobuf from 'protobufjs';
import type { JSONObject } from '../builder/definitions.js';
import { gnosticV2Descriptor } from './gnostic-v2-descriptor.js';

type Obj = Record<string, unknown>;

const root = protobuf.Root.fromJSON(gnosticV2Descriptor);
const DocumentType = root.lookupType('openapi.v2.Document');

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function extensions(o: Obj): Obj[] {
  return Object.keys(o).filter((k) => k.startsWith('x-')).map((k) => ({ name: k, value: { yaml: `${JSON.stringify(o[k])}\n` } }));
}

/** Value validations carried as they are (numbers, flags, the pattern). */
const VALIDATIONS = ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties'];

function schema(s: Obj): Obj {
  const out: Obj = {};
  if (typeof s.$ref === 'string') out.ref = s.$ref;
  if (typeof s.format === 'string') out.format = s.format;
  if (typeof s.title === 'string') out.title = s.title;
  if (typeof s.description === 'string') out.description = s.description;
  for (const key of VALIDATIONS) if (typeof s[key] === 'number' || typeof s[key] === 'boolean' || typeof s[key] === 'string') out[key] = s[key];
  if (s.default !== undefined) out.default = { yaml: `${JSON.stringify(s.default)}\n` };
  if (Array.isArray(s.required)) out.required = s.required;
  if (Array.isArray(s.enum)) out.enum = s.enum.map((e) => ({ yaml: `${JSON.stringify(e)}\n` }));
  if (typeof s.additionalProperties === 'boolean') out.additionalProperties = { boolean: s.additionalProperties };
  else if (isObj(s.additionalProperties)) out.additionalProperties = { schema: schema(s.additionalProperties) };
  if (typeof s.type === 'string') out.type = { value: [s.type] };
  if (isObj(s.items)) out.items = { schema: [schema(s.items)] };
  if (Array.isArray(s.allOf)) out.allOf = s.allOf.filter(isObj).map(schema);
  if (isObj(s.properties)) out.properties = { additionalProperties: namedSchemas(s.properties) };
  const ext = extensions(s);
  if (ext.length) out.vendorExtension = ext;
  return out;
}

function namedSchemas(o: Obj): Obj[] {
  return Object.keys(o).filter((k) => isObj(o[k])).map((k) => ({ name: k, value: schema(o[k] as Obj) }));
}

function parameter(p: Obj): Obj {
  if (p.in === 'body') {
    return { parameter: { bodyParameter: {
      name: p.name, in: p.in, required: p.required === true, ...(isObj(p.schema) ? { schema: schema(p.schema) } : {}),
    } } };
  }
  const sub = { required: p.required === true, in: p.in, name: p.name, type: p.type, uniqueItems: p.uniqueItems === true };
  return { parameter: { nonBodyParameter: p.in === 'path' ? { pathParameterSubSchema: sub } : { queryParameterSubSchema: sub } } };
}

function operation(op: Obj): Obj {
  const responses = isObj(op.responses) ? op.responses : {};
  return {
    tags: op.tags, operationId: op.operationId, produces: op.produces, consumes: op.consumes, schemes: op.schemes,
    parameters: Array.isArray(op.parameters) ? op.parameters.filter(isObj).map(parameter) : [],
    responses: {
      responseCode: Object.keys(responses).map((code) => {
        const r = responses[code] as Obj;
        return { name: code, value: { response: {
          description: r.description ?? '', ...(isObj(r.schema) ? { schema: { schema: schema(r.schema) } } : {}),
        } } };
      }),
    },
    vendorExtension: extensions(op),
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function pathItem(item: Obj): Obj {
  const out: Obj = {};
  for (const m of METHODS) if (isObj(item[m])) out[m] = operation(item[m] as Obj);
  if (Array.isArray(item.parameters)) out.parameters = item.parameters.filter(isObj).map(parameter);
  return out;
}

/** The gnostic protobuf bytes of a Swagger 2.0 document. */
export function encodeSwaggerProto(doc: JSONObject): Uint8Array {
  const paths = isObj(doc.paths) ? doc.paths : {};
  const info = isObj(doc.info) ? doc.info : {};
  const secDefs = isObj(doc.securityDefinitions) ? doc.securityDefinitions : {};
  const message = {
    swagger: doc.swagger,
    info: { title: info.title, version: info.version },
    paths: { path: Object.keys(paths).map((p) => ({ name: p, value: pathItem(paths[p] as Obj) })) },
    definitions: { additionalProperties: namedSchemas(isObj(doc.definitions) ? doc.definitions : {}) },
    security: (Array.isArray(doc.security) ? doc.security : []).filter(isObj).map((req) => ({
      additionalProperties: Object.keys(req).map((name) => ({ name, value: { value: req[name] } })),
    })),
    securityDefinitions: {
      additionalProperties: Object.keys(secDefs).map((name) => {
        const d = secDefs[name] as Obj;
        return { name, value: { apiKeySecurity: { type: d.type, name: d.name, in: d.in, description: d.description } } };
      }),
    },
  };
  return DocumentType.encode(DocumentType.fromObject(message)).finish();
}
