// CSIDriver: upstream's spec defaults, and the fields kubelet relies on stay fixed.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { GoLiteral, goStringSlice } from '../../../runtime/gofmt.js';
import { child, duplicate, index, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Ephemeral', 'Persistent'];

function spec(o: KubeObject): Record<string, unknown> {
  return isPlainObject(o.spec) ? o.spec : {};
}

export class CSIDriverStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    const s = o.spec as Record<string, unknown>;
    const defaults: Record<string, unknown> = {
      attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false, seLinuxMount: false,
    };
    for (const [k, v] of Object.entries(defaults)) if (s[k] === undefined || s[k] === null) s[k] = v;
    if (!Array.isArray(s.volumeLifecycleModes) || s.volumeLifecycleModes.length === 0) s.volumeLifecycleModes = ['Persistent'];
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const s = spec(o);
    const errs: FieldError[] = [];
    if (typeof s.attachRequired !== 'boolean') errs.push(required('spec.attachRequired'));
    if (typeof s.podInfoOnMount !== 'boolean') errs.push(required('spec.podInfoOnMount'));
    if (typeof s.fsGroupPolicy === 'string' && !fsGroupPolicies.includes(s.fsGroupPolicy)) {
      errs.push(notSupported('spec.fsGroupPolicy', s.fsGroupPolicy, fsGroupPolicies));
    }
    if (typeof s.requiresRepublish !== 'boolean') errs.push(required('spec.requiresRepublish'));
    if (typeof s.storageCapacity !== 'boolean') errs.push(required('spec.storageCapacity'));
    if (typeof s.seLinuxMount !== 'boolean') errs.push(required('spec.seLinuxMount'));
    const modes = Array.isArray(s.volumeLifecycleModes) ? s.volumeLifecycleModes : [];
    for (const m of modes) {
      if (!lifecycleModes.includes(m as string)) errs.push(notSupported('spec.volumeLifecycleModes', m, lifecycleModes));
    }
    const audiences = new Set<string>();
    const tokens = Array.isArray(s.tokenRequests) ? s.tokenRequests : [];
    tokens.forEach((raw, i) => {
      const t = isPlainObject(raw) ? raw : {};
      const p = index('spec.tokenRequests', i);
      const audience = typeof t.audience === 'string' ? t.audience : '';
      if (audiences.has(audience)) errs.push(duplicate(child(p, 'audience'), audience));
      audiences.add(audience);
      const exp = t.expirationSeconds;
      if (typeof exp === 'number') {
        if (exp < 600) errs.push(invalid(child(p, 'expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
        if (exp > 1 << 32) errs.push(invalid(child(p, 'expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
      }
    });
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const s = spec(o);
    const os = spec(old);
    const modes = (v: unknown) => new GoLiteral(goStringSlice(Array.isArray(v) ? (v as string[]) : null));
    const errs = this.validateObject(o);
    // Upstream's path really says "attachedRequired".
    errs.push(...validateImmutableField(s.attachRequired, os.attachRequired, 'spec.attachedRequired'));
    errs.push(...validateImmutableField(s.fsGroupPolicy, os.fsGroupPolicy, 'spec.fsGroupPolicy'));
    errs.push(...validateImmutableField(s.podInfoOnMount, os.podInfoOnMount, 'spec.podInfoOnMount'));
    const lc = validateImmutableField(s.volumeLifecycleModes, os.volumeLifecycleModes, 'spec.volumeLifecycleModes');
    errs.push(...lc.map((e) => ({ ...e, value: modes(s.volumeLifecycleModes) })));
    return errs;
  }
}
