// Converts between the JSON form of an API object (what the rest of the server holds) and
// upstream's protobuf message, walking the generated descriptors. Byte-exact with
// upstream's encoder: fields in number order, map entries sorted by key, Go value fields
// written even when zero, pointers, slices and maps only when set. Decoding gives the JSON
// upstream's Go structs would marshal to (omitempty honoured, structs always present).
// The encoder is encode.ts, the decoder decode.ts, the messages with their own JSON form
// special-types.ts; this module is their one entry point.
export { encodeInto, encodeMessage } from './encode.js';
export { decodeBytes, decodeMessage } from './decode.js';
export { ProtobufShapeError } from './values.js';
