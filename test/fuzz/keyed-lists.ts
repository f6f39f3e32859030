// Associative lists that do not fit their keys: items missing a key, repeating one,
// holding one of the wrong type, or not objects at all. The field manager must never
// turn these into a 500 (issue 27); the property test and the fuzz campaign send them.
import fc from 'fast-check';

/** A value where a key field belongs: the right type, the wrong one, or nothing sensible. */
const keyValue = (right: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => fc.oneof(
  { weight: 4, arbitrary: right },
  fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]), fc.constant(''),
);

/** One item of a list keyed by `keys`: keys present, absent or mistyped, plus other fields. */
const item = (keys: Record<string, fc.Arbitrary<unknown>>, extra: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> => fc.oneof(
  { weight: 8, arbitrary: fc.record(Object.fromEntries([...Object.entries(keys).map(([k, a]) => [k, keyValue(a)]), ...Object.entries(extra)]), { requiredKeys: [] }) },
  fc.constant(null), fc.string({ maxLength: 3 }), fc.integer(), fc.constant([]),
);

/** A list of such items, often repeating one (a duplicate key), or not a list at all. */
export const keyedList = (keys: Record<string, fc.Arbitrary<unknown>>, extra: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> => fc.oneof(
  { weight: 6, arbitrary: fc.array(item(keys, extra), { maxLength: 4 }) },
  { weight: 3, arbitrary: fc.array(item(keys, extra), { minLength: 1, maxLength: 2 }).map((xs) => [...xs, ...xs]) },
  fc.constant(null), fc.constant({}), fc.string({ maxLength: 3 }),
);

const conditionType = fc.constantFrom('Ready', 'Approved', 'Denied', 'Failed', 'NamesAccepted', 'Established', 'X');

/** status.conditions of most kinds: keyed by type. */
export const conditionsList = keyedList({ type: conditionType }, {
  status: fc.constantFrom('True', 'False', 'Unknown', 7), reason: fc.constantFrom('R', ''), message: fc.constantFrom('m', 'patched'),
});

/** A container's ports: keyed by containerPort and protocol. */
export const containerPortsList = keyedList({ containerPort: fc.constantFrom(80, 443), protocol: fc.constantFrom('TCP', 'UDP') }, { name: fc.constantFrom('http', 'x') });

/** A pod template's containers: keyed by name, with ports. */
export const containersList = keyedList({ name: fc.constantFrom('a', 'b') }, { image: fc.constantFrom('nginx', ''), ports: containerPortsList });

/** Sets `value` at `path` in a copy of `obj`, making the objects on the way. */
export function setAt(obj: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(obj);
  let o = copy;
  for (const k of path.slice(0, -1)) {
    const next = o[k];
    o = (o[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  o[path[path.length - 1]] = value;
  return copy;
}
