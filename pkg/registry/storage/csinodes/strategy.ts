// CSINode: one entry per driver with a node ID; an empty driver list is stored as null
// (Go's nil slice in a field without omitempty), as upstream answers.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { child, duplicate, index, invalid, required } from '../../../apis/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateLabelName } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

const nodeIDMaxLength = 192;

export class CSINodeStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
  }

  // An empty driver list is stored as Go's nil slice (null); the field manager has
  // already recorded the writer's `[]` as a set field, as upstream's does.
  override canonicalize(o: KubeObject): void {
    super.canonicalize(o);
    const spec = o.spec as Record<string, unknown>;
    if (!Array.isArray(spec.drivers) || spec.drivers.length === 0) spec.drivers = null;
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = isPlainObject(o.spec) ? o.spec : {};
    const drivers = Array.isArray(spec.drivers) ? spec.drivers : [];
    const errs: FieldError[] = [];
    const names = new Set<string>();
    drivers.forEach((raw, i) => {
      const d = isPlainObject(raw) ? raw : {};
      const p = index('spec.drivers', i);
      const name = typeof d.name === 'string' ? d.name : '';
      errs.push(...csiDriverNameErrors(name, child(p, 'name')));
      const nodeID = typeof d.nodeID === 'string' ? d.nodeID : '';
      if (nodeID === '') errs.push(required(child(p, 'nodeID')));
      else if (nodeID.length > nodeIDMaxLength) errs.push(invalid(child(p, 'nodeID'), nodeID, `must be ${nodeIDMaxLength} characters or less`));
      const count = isPlainObject(d.allocatable) ? d.allocatable.count : undefined;
      if (typeof count === 'number' && count < 0) errs.push(invalid(child(p, 'allocatable', 'count'), count, 'must be greater than or equal to 0'));
      if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
      names.add(name);
      const keys = new Set<string>();
      for (const k of Array.isArray(d.topologyKeys) ? d.topologyKeys : []) {
        const key = String(k);
        if (key === '') errs.push(required(p, key));
        if (keys.has(key)) errs.push(duplicate(p, key));
        keys.add(key);
        errs.push(...validateLabelName(key, p));
      }
    });
    return errs;
  }
}

/** Upstream's ValidateCSIDriverName. */
export function csiDriverNameErrors(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(required(path));
  if (name.length > 63) errs.push({ type: 'FieldValueTooLong', field: path, value: name, detail: 'must have at most 63 bytes' });
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(path, name, msg));
  return errs;
}
