// The generic store's view of a resource declaration.
import type { KubeObject } from '../../runtime/object.js';
import type { TypeDef } from '../../runtime/scheme.js';
import type { FieldLabelConversion } from '../../apis/meta/fields.js';
import type { PatchSchema } from '../../apis/meta/patch-schema.js';
import type { Storage } from '../../storage/interfaces.js';
import type { Strategy } from './strategy.js';
import type { WriteHooks } from './hooks.js';

/**
 * What the generic store needs to know of a resource beyond its names: how it behaves
 * (strategy, write hooks), how it is stored and selected. The registry's declaration of
 * a served resource (rest/resource.ts) extends it with what serving takes.
 */
export interface StoreDef extends TypeDef {
  strategy: Strategy;
  /** Work beside the storage write (service IP and port allocation); bound by the server. */
  hooks?: WriteHooks;
  /**
   * Conversion to and from the stored form, for a kind served in a second group or
   * version over the same storage (events.k8s.io/v1 Event over core v1 Event).
   */
  conversion?: { toStorage(obj: KubeObject): KubeObject; fromStorage(obj: KubeObject): KubeObject };
  /** The subresources served; a status subresource of the same kind splits field ownership. */
  subresources?: Array<{ name: string; kind: string }>;
  /**
   * The values this kind's field selectors match beyond metadata.name and
   * metadata.namespace (upstream's GetAttrs / ToSelectableFields).
   */
  selectableFields?: (obj: Record<string, unknown>) => Record<string, string>;
  /**
   * Selectable fields the watch cache indexes, so a list or watch selecting one value
   * (a kubelet's spec.nodeName=<node>) is not matched against every object: upstream's
   * Indexers and TriggerFunc. metadata.name is indexed for every kind.
   */
  indexFields?: string[];
  /**
   * The selector labels accepted and the words for others (upstream's field label
   * conversion); absent: metadata.name and metadata.namespace only (defaultFieldLabels).
   */
  fieldLabels?: FieldLabelConversion;
  /**
   * The resource's own view of the shared storage (custom resources convert between
   * their versions there, asynchronously, as upstream's storage codec does).
   */
  wrapStorage?: (storage: Storage) => Storage;
  /** Served from a CustomResourceDefinition. */
  customResource?: {
    /** The schema's list and map types, for server-side apply. */
    patchSchema?: PatchSchema;
  };
}
