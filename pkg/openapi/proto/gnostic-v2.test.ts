import { expect } from 'chai';
import { encodeSwaggerProto } from './gnostic-v2.js';

const hex = (b: Uint8Array | Buffer) => Buffer.from(b).toString('hex');
const bytes = (...parts: (number[] | string)[]) =>
  hex(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

describe('encodeSwaggerProto', () => {
  const doc = {
    swagger: '2.0',
    info: { title: 'T', version: 'v' },
    paths: {
      '/x': { get: { operationId: 'op', responses: { 200: { description: 'OK' } }, 'x-kubernetes-action': 'get' } },
    },
    definitions: { 'a.B': { type: 'string', 'x-kubernetes-map-type': 'atomic' } },
  };
  const out = hex(encodeSwaggerProto(doc));

  it('puts fields at gnostic openapi.v2 field numbers', () => {
    // Document.swagger = 1, Info.title = 1 / version = 2 inside Document.info = 2.
    expect(out.startsWith(bytes([0x0a, 3], '2.0', [0x12, 6, 0x0a, 1], 'T', [0x12, 1], 'v'))).to.equal(true);
    // Schema.type (22, TypeItem.value = 1).
    expect(out).to.contain(bytes([0xb2, 0x01, 8, 0x0a, 6], 'string'));
    // Schema.vendor_extension (31) = NamedAny{name = 1, value = Any{yaml = 2}}.
    expect(out).to.contain(bytes([0xfa, 0x01, 36, 0x0a, 21], 'x-kubernetes-map-type', [0x12, 11, 0x12, 9], '"atomic"\n'));
    // Operation.operation_id (5) and Operation.vendor_extension (13).
    expect(out).to.contain(bytes([0x2a, 2], 'op'));
    expect(out).to.contain(bytes([0x6a, 31, 0x0a, 19], 'x-kubernetes-action', [0x12, 8, 0x12, 6], '"get"\n'));
    // Responses.response_code (1) = NamedResponseValue{name "200", value = ResponseValue{response = Response{description}}}.
    expect(out).to.contain(bytes([0x0a, 13, 0x0a, 3], '200', [0x12, 6, 0x0a, 4, 0x0a, 2], 'OK'));
  });

  it('carries the value validations of custom resource schemas', () => {
    const cr = hex(encodeSwaggerProto({ ...doc, definitions: { 'c.D': { title: 'T', maximum: 10, maxLength: 3, pattern: '^a', uniqueItems: true } } }));
    // Schema.title (3), maximum (7, double), max_length (11, varint), pattern (13), unique_items (16).
    expect(cr).to.contain(bytes([0x1a, 1], 'T'));
    expect(cr).to.contain(bytes([0x39, 0, 0, 0, 0, 0, 0, 0x24, 0x40]));
    expect(cr).to.contain(bytes([0x58, 3]));
    expect(cr).to.contain(bytes([0x6a, 2], '^a'));
    expect(cr).to.contain(bytes([0x80, 0x01, 1]));
  });
});
