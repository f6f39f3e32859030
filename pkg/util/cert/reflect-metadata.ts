// @peculiar/x509 resolves its algorithms through tsyringe, which refuses to load unless
// the Metadata Reflection API exists. The reflect-metadata package is not a dependency,
// so this provides the three functions tsyringe and tslib's decorators call. It must be
// imported before @peculiar/x509 (ES modules evaluate imports in order).
type Key = unknown;
type Prop = string | symbol | undefined;

const store = new WeakMap<object, Map<Prop, Map<Key, unknown>>>();

function table(target: object, prop: Prop, create: boolean): Map<Key, unknown> | undefined {
  let byProp = store.get(target);
  if (!byProp) {
    if (!create) return undefined;
    byProp = new Map();
    store.set(target, byProp);
  }
  let byKey = byProp.get(prop);
  if (!byKey && create) {
    byKey = new Map();
    byProp.set(prop, byKey);
  }
  return byKey;
}

const api = {
  defineMetadata(key: Key, value: unknown, target: object, prop?: Prop): void {
    table(target, prop, true)!.set(key, value);
  },
  getOwnMetadata(key: Key, target: object, prop?: Prop): unknown {
    return table(target, prop, false)?.get(key);
  },
  getMetadata(key: Key, target: object, prop?: Prop): unknown {
    for (let t: object | null = target; t !== null; t = Object.getPrototypeOf(t) as object | null) {
      const m = table(t, prop, false);
      if (m?.has(key)) return m.get(key);
    }
    return undefined;
  },
  metadata(key: Key, value: unknown) {
    return (target: object, prop?: Prop): void => api.defineMetadata(key, value, target, prop);
  },
};

const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect['getMetadata'] !== 'function') {
  for (const [name, fn] of Object.entries(api)) reflect[name] = fn;
}

export {};
