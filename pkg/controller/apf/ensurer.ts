// Keeps the APF bootstrap configuration in place, by upstream v1.28's config-producer
// rules: mandatory objects are created and always put back to their fixed spec;
// suggested objects are created when missing and updated only while their
// apf.kubernetes.io/autoupdate-spec annotation says true (or, without a readable
// annotation, while generation is 1: nobody has edited them); objects this release no
// longer suggests are deleted if they are still marked for auto-update.
import type { Logger } from 'pino';
import { StatusError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { parseApiVersion } from '../../runtime/scheme.js';
import type { Client, ResourceClient } from '../../client/interfaces.js';
import { isNotFound } from '../../client/retry.js';
import {
  AutoUpdateAnnotation, mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels,
} from '../../registry/flowcontrol/bootstrap.js';
import { semanticEqual } from '../../registry/flowcontrol/validation.js';

export const Group = 'flowcontrol.apiserver.k8s.io';
export const producerFieldManager = 'api-priority-and-fairness-config-producer-v1';

type Obj = Record<string, unknown>;

/** Go's strconv.ParseBool; undefined when the text is not a boolean. */
export function parseGoBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

function autoUpdateOf(obj: KubeObject): boolean | undefined {
  return parseGoBool(obj.metadata.annotations?.[AutoUpdateAnnotation]);
}

/** Whether a suggested object's spec may be rewritten (upstream's shouldUpdateSpec). */
function suggestedAutoUpdate(current: KubeObject): boolean {
  return autoUpdateOf(current) ?? current.metadata.generation === 1;
}

/**
 * Spec comparison as upstream's ensurer makes it: the exempt priority level's `exempt`
 * settings belong to the operator, so they neither count as a difference nor get reset.
 */
function desiredSpec(current: KubeObject, bootstrap: KubeObject): Obj {
  const want = structuredClone(bootstrap.spec) as Obj;
  const have = isPlainObject(current.spec) ? current.spec : {};
  if (current.kind === 'PriorityLevelConfiguration' && current.metadata.name === 'exempt' && isPlainObject(have.exempt)) {
    want.exempt = { ...(want.exempt as Obj), ...have.exempt };
  }
  return want;
}

export type Revision = { spec?: Obj; autoUpdate: boolean } | undefined;

/** What to change on an existing bootstrap object; undefined when it is as it should be. */
export function revise(current: KubeObject, bootstrap: KubeObject, mandatory: boolean): Revision {
  if (current.metadata.deletionTimestamp) return undefined;
  const autoUpdate = mandatory || suggestedAutoUpdate(current);
  const annotationRight = autoUpdateOf(current) === autoUpdate;
  const want = desiredSpec(current, bootstrap);
  const specDiffers = autoUpdate && !semanticEqual(current.spec, want);
  if (annotationRight && !specDiffers) return undefined;
  return specDiffers ? { spec: want, autoUpdate } : { autoUpdate };
}

export class APFConfigEnsurer {
  private readonly flowSchemas: ResourceClient;
  private readonly priorityLevels: ResourceClient;

  constructor(client: Client, private readonly log: Logger) {
    // The version the bootstrap objects are written in.
    const version = parseApiVersion(mandatoryFlowSchemas[0]!.apiVersion ?? '').version;
    this.flowSchemas = client.resource(Group, 'flowschemas', version);
    this.priorityLevels = client.resource(Group, 'prioritylevelconfigurations', version);
  }

  /** Names of every object the configuration manages. */
  static managedNames(kind: 'FlowSchema' | 'PriorityLevelConfiguration'): Set<string> {
    const objs = kind === 'FlowSchema' ? [...mandatoryFlowSchemas, ...suggestedFlowSchemas] : [...mandatoryPriorityLevels, ...suggestedPriorityLevels];
    return new Set(objs.map((o) => o.metadata.name!));
  }

  /** One pass in upstream's order: suggested, mandatory, then objects no longer suggested. */
  async ensure(): Promise<void> {
    for (const pl of suggestedPriorityLevels) await this.ensureOne(this.priorityLevels, pl, false);
    for (const fs of suggestedFlowSchemas) await this.ensureOne(this.flowSchemas, fs, false);
    for (const pl of mandatoryPriorityLevels) await this.ensureOne(this.priorityLevels, pl, true);
    for (const fs of mandatoryFlowSchemas) await this.ensureOne(this.flowSchemas, fs, true);
    await this.removeDangling(this.priorityLevels, APFConfigEnsurer.managedNames('PriorityLevelConfiguration'));
    await this.removeDangling(this.flowSchemas, APFConfigEnsurer.managedNames('FlowSchema'));
  }

  private async ensureOne(rc: ResourceClient, bootstrap: KubeObject, mandatory: boolean): Promise<void> {
    const name = bootstrap.metadata.name!;
    const opts = { fieldManager: producerFieldManager };
    try {
      let current: KubeObject;
      try {
        current = await rc.get('', name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await rc.create('', structuredClone(bootstrap), opts);
        return;
      }
      const change = revise(current, bootstrap, mandatory);
      if (!change) return;
      const next = structuredClone(current);
      if (change.spec) next.spec = change.spec;
      next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [AutoUpdateAnnotation]: String(change.autoUpdate) };
      this.log.info({ kind: bootstrap.kind, name, mandatory }, 'updating APF bootstrap configuration object');
      await rc.update('', next, opts);
    } catch (err) {
      // Another replica wrote it first: the next pass looks again.
      if (err instanceof StatusError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
  }

  private async removeDangling(rc: ResourceClient, managed: Set<string>): Promise<void> {
    const list = await rc.list('');
    for (const obj of list.items) {
      const name = obj.metadata.name ?? '';
      if (managed.has(name) || obj.metadata.deletionTimestamp || autoUpdateOf(obj) !== true) continue;
      try {
        await rc.delete('', name, { preconditions: { uid: obj.metadata.uid } });
        this.log.info({ kind: obj.kind, name }, 'deleted APF configuration object this release no longer suggests');
      } catch (err) {
        if (err instanceof StatusError && (err.code === 404 || err.code === 409)) continue;
        throw err;
      }
    }
  }
}
