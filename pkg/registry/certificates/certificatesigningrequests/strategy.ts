// CertificateSigningRequest: the requester's identity comes from the request context,
// never from the body; spec is fixed after create; Approved/Denied conditions only
// through /approval, the certificate only through /status.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { strictCSROptions, updateCSROptions, validateCSR, validateCSRUpdate } from '../../../apis/certificates/validation.js';
import { BaseStrategy, copyField } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';

type Obj = Record<string, unknown>;

export class CSRStrategy extends BaseStrategy {
  constructor() {
    // Upstream's name rule for CSRs accepts any path-segment name.
    super({ namespaced: false, nameValidator: () => [], hasStatus: true });
  }

  override applyDefaults(obj: KubeObject): void {
    const status = isPlainObject(obj.status) ? obj.status : undefined;
    if (status && Array.isArray(status.conditions)) {
      for (const c of status.conditions) if (isPlainObject(c) && !c.status) c.status = 'True';
    }
  }

  resetFields(subresource: string): string[][] {
    if (subresource === 'status') return [['spec'], ['status', 'conditions']];
    if (subresource === 'approval') return [['spec'], ['status', 'certificate']];
    return [['status']];
  }

  protected override prepareObjectForCreate(obj: KubeObject, ctx: StrategyContext): void {
    const spec: Obj = isPlainObject(obj.spec) ? obj.spec : (obj.spec = {});
    for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
    const user = ctx.user;
    if (user) {
      if (user.name) spec.username = user.name;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length > 0) spec.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length > 0) spec.extra = structuredClone(user.extra);
    }
    obj.status = {};
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    copyField(obj, old, 'spec');
    if (ctx.subresource === 'approval') {
      const conditions = isPlainObject(obj.status) ? obj.status.conditions : undefined;
      obj.status = isPlainObject(old.status) ? structuredClone(old.status) : {};
      if (conditions === undefined) delete (obj.status as Obj).conditions;
      else (obj.status as Obj).conditions = conditions;
      populateConditionTimestamps(obj, old);
    } else if (ctx.subresource === 'status') {
      preserveConditionInstances(obj, old, 'Approved');
      preserveConditionInstances(obj, old, 'Denied');
      populateConditionTimestamps(obj, old);
    }
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateCSR(obj, strictCSROptions);
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    return validateCSRUpdate(obj, old, updateCSROptions(old, ctx.subresource));
  }
}

const conditions = (o: KubeObject): Obj[] => {
  const s = isPlainObject(o.status) ? o.status : undefined;
  return s && Array.isArray(s.conditions) ? s.conditions.filter(isPlainObject) : [];
};

/** The status endpoint cannot add, drop or change conditions of type t: the stored ones stay. */
function preserveConditionInstances(obj: KubeObject, old: KubeObject, t: string): void {
  const status: Obj = isPlainObject(obj.status) ? obj.status : (obj.status = {});
  const kept = conditions(obj).filter((c) => c.type !== t);
  const fromOld = conditions(old).filter((c) => c.type === t).map((c) => structuredClone(c));
  const all = [...kept, ...fromOld];
  if (all.length > 0) status.conditions = all;
  else delete status.conditions;
}

function populateConditionTimestamps(obj: KubeObject, old: KubeObject): void {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  for (const c of conditions(obj)) {
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const prev = conditions(old).find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = prev ? prev.lastTransitionTime : now;
    }
  }
}
