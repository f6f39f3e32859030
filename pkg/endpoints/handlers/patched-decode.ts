// What upstream's patchers refuse when they turn a patched document back into the kind,
// ahead of any strict-field problem, for a resource's own patch and its /scale alike.
import { typeProblemOf } from '../../openapi/type-check.js';
import { conversionProblemOf } from '../../openapi/convert-check.js';
import { encodeWithFloatLiterals, type FloatLiteral } from '../../openapi/float-literals.js';
import type { ChangedRegion } from '../../runtime/changed-region.js';
import { goValueString, patchDecodeFailure, sortedCopy } from '../fieldvalidation/index.js';
import type { BodyType } from './decode.js';

/**
 * The JSON and merge patchers decode the patched document into the kind, and a value of
 * the wrong type there is their 422 on "patch" showing the document (Go's encoding: keys
 * sorted, a patch's numbers as written).
 */
export function rejectUndecodable(type: BodyType, patched: Record<string, unknown>, region: ChangedRegion, floats: FloatLiteral[]): void {
  const cause = typeProblemOf(type.group, type.version, type.kind, patched, region, floats);
  if (cause !== undefined) throw patchDecodeFailure(encodeWithFloatLiterals(patched, floats, sortedCopy), cause);
}

/**
 * The strategic patcher converts the patched map into the kind (no JSON decode): a value
 * that does not convert is its 422 on "patch" showing the patch as Go prints a map, with
 * the converter's words. `region`: the patch's keys when only what they name can have
 * changed type (directives reorder or remove, they add no values).
 */
export function rejectUnconvertible(type: BodyType, patched: Record<string, unknown>, patch: unknown, region: ChangedRegion): void {
  const cause = conversionProblemOf(type.group, type.version, type.kind, patched, region);
  if (cause !== undefined) throw patchDecodeFailure(goValueString(patch), cause);
}
