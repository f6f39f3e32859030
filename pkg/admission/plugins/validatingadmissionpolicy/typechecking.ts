// status.typeChecking of a policy (upstream's TypeChecker): each validation's expression
// and messageExpression is checked against the schema of every kind its
// matchConstraints name explicitly (wildcard rules give no type information), with
// params typed by paramKind. Warnings are `<group>/<version>, Kind=<kind>: <errors>`.
import { typeCheck } from '../../../cel/typecheck.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export interface KindResolver {
  /** The kind a group/version serves `resource` as, if it is served. */
  kindFor(group: string, version: string, resource: string): string | undefined;
  /** The schema definition name of a kind, if known. */
  definitionFor(group: string, version: string, kind: string): string | undefined;
}

export interface ExpressionWarning { fieldRef: string; warning: string }

function gvkString(group: string, version: string, kind: string): string {
  return `${group}/${version}, Kind=${kind}`;
}

function matchedKinds(spec: Obj, r: KindResolver): Array<{ gvk: string; def: string }> {
  const out = new Map<string, string>();
  const mc = isPlainObject(spec.matchConstraints) ? spec.matchConstraints : {};
  for (const rule of Array.isArray(mc.resourceRules) ? mc.resourceRules : []) {
    if (!isPlainObject(rule)) continue;
    const groups = strings(rule.apiGroups);
    const versions = strings(rule.apiVersions);
    const resources = strings(rule.resources);
    if ([...groups, ...versions].includes('*') || resources.some((x) => x.includes('*') || x.includes('/'))) continue;
    for (const g of groups) {
      for (const v of versions) {
        for (const res of resources) {
          const kind = r.kindFor(g, v, res);
          const def = kind ? r.definitionFor(g, v, kind) : undefined;
          if (kind && def) out.set(gvkString(g, v, kind), def);
        }
      }
    }
  }
  return [...out].map(([gvk, def]) => ({ gvk, def }));
}

export function typeCheckPolicy(policy: KubeObject, r: KindResolver): ExpressionWarning[] {
  const spec = isPlainObject(policy.spec) ? policy.spec : {};
  const kinds = matchedKinds(spec, r);
  if (kinds.length === 0) return [];
  let paramsDef: string | undefined;
  if (isPlainObject(spec.paramKind)) {
    const av = String(spec.paramKind.apiVersion ?? '');
    const [g, v] = av.includes('/') ? av.split('/', 2) as [string, string] : ['', av];
    paramsDef = r.definitionFor(g, v, String(spec.paramKind.kind ?? ''));
  }
  const warnings: ExpressionWarning[] = [];
  const check = (fieldRef: string, expression: unknown): void => {
    if (typeof expression !== 'string' || !expression.trim()) return;
    const parts: string[] = [];
    for (const k of kinds) {
      const err = typeCheck(expression, { object: k.def, oldObject: k.def, params: paramsDef });
      if (err) parts.push(`${k.gvk}: ${err}`);
    }
    if (parts.length > 0) warnings.push({ fieldRef, warning: parts.join('\n') });
  };
  (Array.isArray(spec.validations) ? spec.validations : []).forEach((v, i) => {
    if (!isPlainObject(v)) return;
    check(`spec.validations[${i}].expression`, v.expression);
    check(`spec.validations[${i}].messageExpression`, v.messageExpression);
  });
  return warnings;
}
