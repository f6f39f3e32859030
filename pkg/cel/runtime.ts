// The CEL implementation (@bufbuild/cel and the @bufbuild/protobuf registry under it),
// loaded on the first expression compiled or evaluated: some 130 modules and a quarter
// of a second of CPU that a server start without admission policies or CRD validation
// rules never needs. Their CommonJS builds load synchronously, so the synchronous
// validators keep their signatures; every use goes through here, so one copy is loaded.
import { createRequire } from 'node:module';
import type * as Cel from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as Wkt from '@bufbuild/protobuf/wkt';

const require = createRequire(import.meta.url);

function once<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

export const cel = once(() => require('@bufbuild/cel') as typeof Cel);
export const celExt = once(() => require('@bufbuild/cel/ext') as typeof CelExt);
export const protobuf = once(() => require('@bufbuild/protobuf') as typeof Protobuf);
export const wkt = once(() => require('@bufbuild/protobuf/wkt') as typeof Wkt);
