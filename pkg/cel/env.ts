// The CEL environment of Kubernetes v1.28 admission expressions: CEL's standard library,
// the strings extension, and Kubernetes' lists, regex, urls and authz libraries. Every
// function call and every comprehension iteration is charged to the evaluation's cost
// meter, the stand-in here for cel-go's runtime cost tracking.
import type { CelEnv } from '@bufbuild/cel';
import { cel, celExt } from './runtime.js';
import { authzFunctions } from './library/authz.js';
import { listFunctions } from './library/lists.js';
import { regexFunctions } from './library/regex.js';
import { urlFunctions } from './library/urls.js';

/** Upstream's message when an expression exceeds its per-call cost limit. */
export const costExceededMessage = 'operation cancelled: actual cost limit exceeded';

export class CostMeter {
  used = 0;
  constructor(readonly limit: number) {}
  charge(n: number): void {
    this.used += n;
    if (this.used > this.limit) throw new Error(costExceededMessage);
  }
}

let meter: CostMeter | undefined;

/** Runs fn with `m` charged for every call; evaluation is synchronous, so one slot is enough. */
export function metered<T>(m: CostMeter, fn: () => T): T {
  const prev = meter;
  meter = m;
  try {
    return fn();
  } finally {
    meter = prev;
  }
}

/** Called by the rewritten AST once per comprehension iteration (see compile.ts). */
export const COST_FUNCTION = '@k8s_cost';

function buildEnv(): CelEnv {
  const { celEnv, celFunc, CelScalar } = cel();
  const costFunction = celFunc(COST_FUNCTION, [CelScalar.DYN], CelScalar.DYN, (v) => {
    meter?.charge(1);
    return v;
  });
  const k8sFunctions = [...celExt().strings, ...listFunctions(), ...regexFunctions(), ...urlFunctions(), ...authzFunctions(), costFunction];
  const base = celEnv({ funcs: k8sFunctions });
  const inner = base.funcs;
  // The package's interfaces are structural apart from a brand; plan() reads only
  // funcs, registry and namespace, so a wrapper that charges each call can stand in.
  const funcs = {
    [Symbol.for('@bufbuild/cel/resolver')]: {},
    [Symbol.iterator]: () => inner[Symbol.iterator](),
    find(name: string) {
      const group = inner.find(name);
      if (!group) return undefined;
      return {
        name: group.name,
        [Symbol.iterator]: () => group[Symbol.iterator](),
        call(id: number, target: Parameters<typeof group.call>[1], args: Parameters<typeof group.call>[2]) {
          meter?.charge(1);
          return group.call(id, target, args);
        },
      };
    },
  } as unknown as CelEnv['funcs'];
  return {
    [Symbol.for('@bufbuild/cel/env')]: {},
    namespace: base.namespace,
    registry: base.registry,
    variables: base.variables,
    funcs,
  } as unknown as CelEnv;
}

let built: { env: CelEnv; knownFunctions: ReadonlySet<string> } | undefined;
const environment = () => {
  if (!built) {
    const e = buildEnv();
    built = { env: e, knownFunctions: new Set([...e.funcs].map((f) => f.name)) };
  }
  return built;
};

/** The environment, built on first use (see runtime.ts). */
export const env = (): CelEnv => environment().env;

/** Every function and method name the environment knows, for undeclared-reference checks. */
export const knownFunctions = (): ReadonlySet<string> => environment().knownFunctions;
