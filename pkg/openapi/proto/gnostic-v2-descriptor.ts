// The subset of the gnostic OpenAPI v2 protobuf messages (package openapi.v2) that the
// served Swagger document uses, as a protobufjs JSON descriptor. Field numbers follow
// the published .proto; fields this server never fills are left out (decoders skip
// absent fields, so a subset encodes a valid message).
import type { INamespace } from 'protobufjs';

type Fields = Record<string, { id: number; type: string; rule?: 'repeated' }>;

const str = (id: number) => ({ id, type: 'string' });
const strs = (id: number) => ({ id, type: 'string', rule: 'repeated' as const });
const msg = (id: number, type: string) => ({ id, type });
const msgs = (id: number, type: string) => ({ id, type, rule: 'repeated' as const });
const bool = (id: number) => ({ id, type: 'bool' });
const double = (id: number) => ({ id, type: 'double' });
const int64 = (id: number) => ({ id, type: 'int64' });

function named(valueType: string): { fields: Fields } {
  return { fields: { name: str(1), value: msg(2, valueType) } };
}

function oneof(name: string, fields: Fields): { oneofs: Record<string, { oneof: string[] }>; fields: Fields } {
  return { oneofs: { [name]: { oneof: Object.keys(fields) } }, fields };
}

export const gnosticV2Descriptor: INamespace = {
  nested: {
    openapi: {
      nested: {
        v2: {
          nested: {
            Document: {
              fields: {
                swagger: str(1), info: msg(2, 'Info'), paths: msg(8, 'Paths'), definitions: msg(9, 'Definitions'),
                security: msgs(12, 'SecurityRequirement'), securityDefinitions: msg(13, 'SecurityDefinitions'),
              },
            },
            Info: { fields: { title: str(1), version: str(2), description: str(3) } },
            Paths: { fields: { path: msgs(2, 'NamedPathItem') } },
            NamedPathItem: named('PathItem'),
            PathItem: {
              fields: {
                get: msg(2, 'Operation'), put: msg(3, 'Operation'), post: msg(4, 'Operation'), delete: msg(5, 'Operation'),
                options: msg(6, 'Operation'), head: msg(7, 'Operation'), patch: msg(8, 'Operation'),
                parameters: msgs(9, 'ParametersItem'),
              },
            },
            Operation: {
              fields: {
                tags: strs(1), description: str(3), operationId: str(5), produces: strs(6), consumes: strs(7),
                parameters: msgs(8, 'ParametersItem'), responses: msg(9, 'Responses'), schemes: strs(10),
                vendorExtension: msgs(13, 'NamedAny'),
              },
            },
            ParametersItem: oneof('oneof', { parameter: msg(1, 'Parameter'), jsonReference: msg(2, 'JsonReference') }),
            JsonReference: { fields: { ref: str(1) } },
            Parameter: oneof('oneof', { bodyParameter: msg(1, 'BodyParameter'), nonBodyParameter: msg(2, 'NonBodyParameter') }),
            BodyParameter: { fields: { description: str(1), name: str(2), in: str(3), required: bool(4), schema: msg(5, 'Schema') } },
            NonBodyParameter: oneof('oneof', {
              queryParameterSubSchema: msg(3, 'QueryParameterSubSchema'),
              pathParameterSubSchema: msg(4, 'PathParameterSubSchema'),
            }),
            QueryParameterSubSchema: {
              fields: { required: bool(1), in: str(2), description: str(3), name: str(4), type: str(6), format: str(7), uniqueItems: bool(20) },
            },
            PathParameterSubSchema: {
              fields: { required: bool(1), in: str(2), description: str(3), name: str(4), type: str(5), format: str(6), uniqueItems: bool(19) },
            },
            Responses: { fields: { responseCode: msgs(1, 'NamedResponseValue') } },
            NamedResponseValue: named('ResponseValue'),
            ResponseValue: oneof('oneof', { response: msg(1, 'Response'), jsonReference: msg(2, 'JsonReference') }),
            Response: { fields: { description: str(1), schema: msg(2, 'SchemaItem') } },
            SchemaItem: oneof('oneof', { schema: msg(1, 'Schema') }),
            Schema: {
              fields: {
                ref: str(1), format: str(2), title: str(3), description: str(4), default: msg(5, 'Any'),
                // Value validations: only custom resources' schemas carry them.
                multipleOf: double(6), maximum: double(7), exclusiveMaximum: bool(8), minimum: double(9),
                exclusiveMinimum: bool(10), maxLength: int64(11), minLength: int64(12), pattern: str(13),
                maxItems: int64(14), minItems: int64(15), uniqueItems: bool(16), maxProperties: int64(17),
                minProperties: int64(18), required: strs(19), enum: msgs(20, 'Any'), additionalProperties: msg(21, 'AdditionalPropertiesItem'),
                type: msg(22, 'TypeItem'), items: msg(23, 'ItemsItem'), allOf: msgs(24, 'Schema'),
                properties: msg(25, 'Properties'), vendorExtension: msgs(31, 'NamedAny'),
              },
            },
            AdditionalPropertiesItem: oneof('oneof', { schema: msg(1, 'Schema'), boolean: bool(2) }),
            TypeItem: { fields: { value: strs(1) } },
            ItemsItem: { fields: { schema: msgs(1, 'Schema') } },
            Properties: { fields: { additionalProperties: msgs(1, 'NamedSchema') } },
            Definitions: { fields: { additionalProperties: msgs(1, 'NamedSchema') } },
            NamedSchema: named('Schema'),
            // Field 1 (google.protobuf.Any) is unused: upstream carries extension values as YAML text.
            Any: { fields: { yaml: str(2) } },
            NamedAny: named('Any'),
            SecurityRequirement: { fields: { additionalProperties: msgs(1, 'NamedStringArray') } },
            NamedStringArray: named('StringArray'),
            StringArray: { fields: { value: strs(1) } },
            SecurityDefinitions: { fields: { additionalProperties: msgs(1, 'NamedSecurityDefinitionsItem') } },
            NamedSecurityDefinitionsItem: named('SecurityDefinitionsItem'),
            SecurityDefinitionsItem: oneof('oneof', { apiKeySecurity: msg(2, 'ApiKeySecurity') }),
            ApiKeySecurity: { fields: { type: str(1), name: str(2), in: str(3), description: str(4) } },
          },
        },
      },
    },
  },
};
