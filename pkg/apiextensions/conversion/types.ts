// The converter seam between custom-resource storage and a CRD's spec.conversion.
import type { Registry } from 'prom-client';
import type { KubeObject } from '../../runtime/object.js';
import type { ServiceLookup } from '../../util/webhook/endpoint.js';

export interface ConvertOptions {
  /**
   * Set when the objects are the items of one list response: upstream then converts the
   * list in one call and words its errors for the list (`<toAPIVersion>, Kind=<listKind>`,
   * item indexes) rather than for a single object.
   */
  listKind?: string;
}

/** Whether upstream would see a list here (its messages differ): a listKind, or several objects. */
export function isListCall(objects: readonly KubeObject[], opts: ConvertOptions | undefined): boolean {
  return opts?.listKind !== undefined || objects.length > 1;
}

export interface Converter {
  /**
   * Converts objects of the CRD's group (each with its own apiVersion) to `toAPIVersion`
   * ("group/version"). Objects already in that version are returned untouched and never sent
   * to a webhook; the others go in ONE ConversionReview per call. Preserves order. Rejects
   * with a ConversionError (a StatusError: 500, no reason, upstream's message).
   */
  convert(objects: KubeObject[], toAPIVersion: string, opts?: ConvertOptions): Promise<KubeObject[]>;
  /** Releases the webhook client's connections (when the CRD changes or goes away). */
  close(): void;
}

export interface ConverterDeps {
  /** Services by namespace and name (the replica's informer): a clientConfig.service is resolved on every call. */
  services: ServiceLookup;
  /** Per-call timeout of a conversion webhook; upstream's is 30 s. Tests lower it. */
  webhookTimeoutSeconds?: number;
  /** Where upstream's conversion webhook metrics go (none when absent). */
  metricsRegistry?: Registry;
}
