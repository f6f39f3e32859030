// PodNodeSelector: pods of a namespace land only on the nodes the namespace allows.
// The namespace's annotation (or the cluster default from the plugin configuration)
// is merged into each new pod's nodeSelector; a pod that asks for a different value of
// one of those labels is refused, and so is one outside the namespace's whitelist.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { lookupNamespace, waitForNamespaces, type NamespaceLookup } from '../../namespaces.js';
import { convertSelectorToLabelsMap, labelsConflict, labelsInWhitelist, mergeLabels, type LabelSet } from '../../../apis/meta/labelset.js';
import { obj, strMap } from '../../../apis/core/types.js';
import { errors } from '../../../runtime/errors.js';
import { plainError } from '../../../util/proxy/errors.js';

export const nodeSelectorAnnotation = 'scheduler.alpha.kubernetes.io/node-selector';

/**
 * podNodeSelectorPluginConfig: `clusterDefaultNodeSelector` and, per namespace name, the
 * whitelist of node labels its pods may select. Values are `k=v,k2=v2` strings.
 */
export type PodNodeSelectorConfig = Record<string, string>;

/**
 * Reads the plugin's configuration document. Upstream decodes it leniently into a struct
 * (Go's JSON field matching ignores case) and ignores what it cannot decode.
 */
export function podNodeSelectorConfig(doc: unknown): PodNodeSelectorConfig {
  const top = obj(doc);
  if (!top) return {};
  const key = Object.keys(top).find((k) => k.toLowerCase() === 'podnodeselectorpluginconfig');
  return key ? strMap(top[key]) : {};
}

export class PodNodeSelector implements AdmissionPlugin {
  readonly name = 'PodNodeSelector';

  constructor(private readonly namespaces: NamespaceLookup, private readonly config: PodNodeSelectorConfig = {}) {}

  handles(op: Operation): boolean {
    return op === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const spec = this.podSpec(a);
    if (!spec) return;
    await waitForNamespaces(this.namespaces, a);
    const nsSelector = await this.namespaceSelector(a.namespace);
    if (labelsConflict(nsSelector, strMap(spec.nodeSelector))) throw this.conflict(a);
    spec.nodeSelector = mergeLabels(nsSelector, strMap(spec.nodeSelector));
    await this.validate(a);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const spec = this.podSpec(a);
    if (!spec) return;
    await waitForNamespaces(this.namespaces, a);
    const podSelector = strMap(spec.nodeSelector);
    if (labelsConflict(await this.namespaceSelector(a.namespace), podSelector)) throw this.conflict(a);
    const whitelist = parse(this.config[a.namespace] ?? '');
    if (!labelsInWhitelist(podSelector, whitelist)) {
      throw errors.forbidden({ group: a.group, resource: a.resource }, a.object?.metadata.name ?? '',
        'pod node label selector labels conflict with its namespace whitelist');
    }
  }

  private podSpec(a: AdmissionAttributes): Record<string, unknown> | undefined {
    if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '') return undefined;
    return obj(a.object?.spec);
  }

  private conflict(a: AdmissionAttributes) {
    return errors.forbidden({ group: a.group, resource: a.resource }, a.object?.metadata.name ?? '',
      'pod node label selector conflicts with its namespace node label selector');
  }

  /** The namespace's annotation if it has one (even empty), else the cluster default. */
  private async namespaceSelector(name: string): Promise<LabelSet> {
    const ns = await lookupNamespace(this.namespaces, name);
    // Upstream's fallback GET words every failure this way, and it is no NotFound.
    if (!ns) throw errors.internal(new Error(`namespace ${name} does not exist`));
    const annotations = ns.metadata.annotations ?? {};
    if (nodeSelectorAnnotation in annotations) return parse(annotations[nodeSelectorAnnotation]);
    return parse(this.config.clusterDefaultNodeSelector ?? '');
  }
}

/** A malformed selector is a plain error upstream: 500 without a reason. */
function parse(selector: string): LabelSet {
  try {
    return convertSelectorToLabelsMap(selector);
  } catch (err) {
    throw plainError((err as Error).message);
  }
}
