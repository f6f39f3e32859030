// Custom resource version conversion (upstream's apiextensions-apiserver
// pkg/apiserver/conversion): the converter a CRD's spec.conversion asks for, behind the
// version checks upstream's crConverter makes before any strategy runs.
import { crdSpec, crdVersions } from '../../apis/apiextensions/types.js';
import type { KubeObject } from '../../runtime/object.js';
import { ConversionError } from './errors.js';
import { nopConverter } from './nop.js';
import { isListCall, type Converter, type ConverterDeps, type ConvertOptions } from './types.js';
import { WebhookConverter } from './webhook.js';

export type { Converter, ConverterDeps, ConvertOptions } from './types.js';
export { ConversionError } from './errors.js';
export { defaultConversionTimeoutSeconds } from './webhook.js';

/**
 * The converter a CRD's spec.conversion asks for (strategy None: only apiVersion changes).
 * Throws for a strategy upstream does not know; validation keeps stored CRDs from having one.
 */
export function converterFor(crd: KubeObject, deps: ConverterDeps): Converter {
  const spec = crdSpec(crd);
  const strategy = spec.conversion?.strategy ?? 'None';
  let inner: Converter;
  if (strategy === 'None') inner = nopConverter;
  else if (strategy === 'Webhook') inner = new WebhookConverter(crd.metadata.name ?? '', spec.conversion?.webhook ?? {}, deps);
  else throw new Error(`unknown conversion strategy ${JSON.stringify(strategy)} for CRD ${crd.metadata.name ?? ''}`);
  const valid = new Set(crdVersions(crd).map((v) => `${spec.group ?? ''}/${v.name ?? ''}`));
  return {
    async convert(objects: KubeObject[], toAPIVersion: string, opts?: ConvertOptions) {
      if (!valid.has(toAPIVersion)) throw new ConversionError(`request to convert CR to an invalid group/version: ${toAPIVersion}`);
      const asList = isListCall(objects, opts);
      objects.forEach((o, i) => {
        if (valid.has(o.apiVersion ?? '')) return;
        throw new ConversionError(asList
          ? `request to convert CR list failed, list index ${i} has invalid group/version: ${o.apiVersion ?? ''}`
          : `request to convert CR from an invalid group/version: ${o.apiVersion ?? ''}`);
      });
      return inner.convert(objects, toAPIVersion, opts);
    },
    close: () => inner.close(),
  };
}
