// The FlowSchema `Dangling` condition upstream's APF config consumer maintains: whether
// the priority level a schema names exists. `kubectl get flowschemas` shows it as MissingPL.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

type Obj = Record<string, unknown>;
export const consumerFieldManager = 'api-priority-and-fairness-config-consumer-v1';

export interface DanglingCondition { type: 'Dangling'; status: 'True' | 'False'; reason: 'NotFound' | 'Found'; message: string }

export function danglingCondition(fs: KubeObject, priorityLevelExists: (name: string) => boolean): DanglingCondition {
  const spec = isPlainObject(fs.spec) ? fs.spec : {};
  const pl = String((isPlainObject(spec.priorityLevelConfiguration) ? spec.priorityLevelConfiguration.name : '') ?? '');
  return priorityLevelExists(pl)
    ? { type: 'Dangling', status: 'False', reason: 'Found',
      message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(pl)} and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound',
      message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(pl)} but there is no such object` };
}

function conditions(fs: KubeObject): Obj[] {
  const c = isPlainObject(fs.status) ? fs.status.conditions : undefined;
  return Array.isArray(c) ? c.filter(isPlainObject) : [];
}

/** The schema's status with `want` in place, or undefined when it already says so. */
export function withDangling(fs: KubeObject, want: DanglingCondition, now: string): Obj | undefined {
  const existing = conditions(fs);
  const cur = existing.find((c) => c.type === 'Dangling');
  if (cur && cur.status === want.status && cur.reason === want.reason && cur.message === want.message) return undefined;
  const next = { type: want.type, status: want.status, lastTransitionTime: now, reason: want.reason, message: want.message };
  return { ...(isPlainObject(fs.status) ? fs.status : {}), conditions: [...existing.filter((c) => c !== cur), next] };
}
