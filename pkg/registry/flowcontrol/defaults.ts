// flowcontrol v1beta3/v1beta2 defaulting, as upstream v1.28 applies it. The two versions
// differ only in the name of the limited level's shares field, which callers pass.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

type Obj = Record<string, unknown>;
export type SharesField = 'nominalConcurrencyShares' | 'assuredConcurrencyShares';

export const FlowSchemaDefaultMatchingPrecedence = 1000;
export const DefaultConcurrencyShares = 30;
export const DefaultQueues = 64;
export const DefaultHandSize = 8;
export const DefaultQueueLengthLimit = 50;

/** Go's zero check on a non-pointer int32: missing, null and 0 all read as unset. */
const unsetInt = (v: unknown): boolean => v === undefined || v === null || v === 0;
const unsetPtr = (v: unknown): boolean => v === undefined || v === null;

export function defaultFlowSchema(obj: KubeObject): void {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  if (unsetInt(spec.matchingPrecedence)) spec.matchingPrecedence = FlowSchemaDefaultMatchingPrecedence;
}

export function defaultPriorityLevel(obj: KubeObject, shares: SharesField): void {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  // Nested defaults run only for the structs that are present (Go pointers).
  if (isPlainObject(spec.limited)) {
    const l = spec.limited;
    if (unsetInt(l[shares])) l[shares] = DefaultConcurrencyShares;
    if (unsetPtr(l.lendablePercent)) l.lendablePercent = 0;
    const q = isPlainObject(l.limitResponse) ? l.limitResponse.queuing : undefined;
    if (isPlainObject(q)) {
      if (unsetInt(q.handSize)) q.handSize = DefaultHandSize;
      if (unsetInt(q.queues)) q.queues = DefaultQueues;
      if (unsetInt(q.queueLengthLimit)) q.queueLengthLimit = DefaultQueueLengthLimit;
    }
  }
  if (isPlainObject(spec.exempt)) {
    const e = spec.exempt;
    if (unsetPtr(e.nominalConcurrencyShares)) e.nominalConcurrencyShares = 0;
    if (unsetPtr(e.lendablePercent)) e.lendablePercent = 0;
  }
}
