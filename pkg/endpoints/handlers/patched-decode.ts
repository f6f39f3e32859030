// What upstream's patchers refuse when they turn a patched document back into the kind,
// ahead of any strict-field problem, for a resource's own patch and its /scale alike.
import { typeProblemOf } from '../../openapi/type-check.js';
import { conversionProblemOf } from '../../openapi/convert-check.js';
import { encodeWithFloatLiterals, type FloatLiteral } from '../../openapi/float-literals.js';
import type { ChangedRegion } from '../../runtime/changed-region.js';
import { isPlainObject } from '../../runtime/object.js';
import { floatLiterals, goValueString, patchDecodeFailure, sortedCopy } from '../fieldvalidation/index.js';
import type { BodyType } from './decode.js';
import { patchResultFloats, type PatchResultFloats } from './patch-floats.js';

type Patched = Record<string, unknown>;

/**
 * The check of one request's patch results, on every pass the store makes: the patch's
 * float literals are located, and a strategic patch parsed, once for all passes.
 * `literals`: false where 3.0 is a fine integer (a custom resource decodes unstructured).
 * `strategicByKeys`: a strategic patch can change types only under its own keys (false
 * where a conversion round trip rebuilds the object). `region`, per pass: where a JSON or
 * merge patch's result may differ from the current object.
 */
export function patchedDecodeCheck(type: BodyType, patchType: 'json' | 'merge' | 'strategic', patch: string,
  opts: { literals: boolean; strategicByKeys: boolean }): (current: Patched, patched: Patched, region: ChangedRegion) => void {
  let floatsOf: PatchResultFloats | undefined;
  let strategicPatch: unknown;
  let twoTo63IsFloat = false;
  return (current, patched, region) => {
    if (patchType !== 'strategic') {
      floatsOf ??= opts.literals ? patchResultFloats(patchType, patch) : () => [];
      rejectUndecodable(type, patched, region, floatsOf(current));
      return;
    }
    if (strategicPatch === undefined) {
      // The patcher has just read it, so it is valid JSON.
      strategicPatch = JSON.parse(patch);
      twoTo63IsFloat = hasFloatAt2To63(patch);
    }
    rejectUnconvertible(type, patched, strategicPatch, opts.strategicByKeys && isPlainObject(strategicPatch) ? strategicPatch : true, twoTo63IsFloat);
  };
}

/**
 * The JSON and merge patchers decode the patched document into the kind, and a value of
 * the wrong type there is their 422 on "patch" showing the document (Go's encoding: keys
 * sorted, a patch's numbers as written).
 */
function rejectUndecodable(type: BodyType, patched: Record<string, unknown>, region: ChangedRegion, floats: FloatLiteral[]): void {
  const cause = typeProblemOf(type.group, type.version, type.kind, patched, region, floats);
  if (cause !== undefined) throw patchDecodeFailure(encodeWithFloatLiterals(patched, floats, sortedCopy), cause);
}

/**
 * The strategic patcher converts the patched map into the kind (no JSON decode): a value
 * that does not convert is its 422 on "patch" showing the patch as Go prints a map, with
 * the converter's words. `region`: the patch's keys when only what they name can have
 * changed type (directives reorder or remove, they add no values).
 */
function rejectUnconvertible(type: BodyType, patched: Record<string, unknown>, patch: unknown, region: ChangedRegion, twoTo63IsFloat: boolean): void {
  const cause = conversionProblemOf(type.group, type.version, type.kind, patched, region, twoTo63IsFloat);
  if (cause !== undefined) throw patchDecodeFailure(goValueString(patch), cause);
}

/**
 * Whether the strategic patch writes a number its decoder keeps as a float64 (a fraction,
 * an exponent, or an integer past int64: sigs.k8s.io/json keeps an int64 only where
 * ParseInt takes the literal) that rounds to 2^63, the double a stored int64 max also
 * reads as: such a value is past int64 for the converter.
 */
function hasFloatAt2To63(patch: string): boolean {
  return floatLiterals(patch).some((f) => Number(f.text) === 2 ** 63 && !isInt64Literal(f.text));
}

function isInt64Literal(text: string): boolean {
  return /^-?\d+$/.test(text) && BigInt(text) < 2n ** 63n && BigInt(text) >= -(2n ** 63n);
}
