// `kubectl get validatingadmissionpolicies`: NAME VALIDATIONS PARAMKIND AGE;
// `kubectl get validatingadmissionpolicybindings`: NAME POLICYNAME PARAMREF AGE.
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

const spec = (o: Record<string, unknown>): Record<string, unknown> => (isPlainObject(o.spec) ? o.spec : {});

export const policyTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    ageColumn(),
  ],
  cells: (obj) => {
    const s = spec(obj);
    const pk = isPlainObject(s.paramKind) ? s.paramKind : undefined;
    return [obj.metadata.name ?? '', Array.isArray(s.validations) ? s.validations.length : 0,
      pk ? `${String(pk.apiVersion ?? '')}/${String(pk.kind ?? '')}` : '<unset>', humanAge(obj.metadata.creationTimestamp)];
  },
};

export const bindingTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    ageColumn(),
  ],
  cells: (obj) => {
    const s = spec(obj);
    const pr = isPlainObject(s.paramRef) ? s.paramRef : undefined;
    let ref = '<unset>';
    if (pr && typeof pr.name === 'string' && pr.name) {
      // The printer cannot tell whether the param kind is cluster-scoped: no namespace reads as `*`.
      ref = `${typeof pr.namespace === 'string' && pr.namespace ? pr.namespace : '*'}/${pr.name}`;
    } else if (pr && isPlainObject(pr.selector)) {
      ref = selectorString(pr.selector);
    }
    return [obj.metadata.name ?? '', String(s.policyName ?? ''), ref, humanAge(obj.metadata.creationTimestamp)];
  },
};

/** Go's generated LabelSelector.String(), which the upstream printer shows for a selector paramRef. */
function selectorString(sel: Record<string, unknown>): string {
  const labels = isPlainObject(sel.matchLabels) ? sel.matchLabels : {};
  const mapStr = Object.keys(labels).sort().map((k) => `${k}: ${String(labels[k])},`).join('');
  const exprs = (Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []).filter(isPlainObject).map((e) => {
    const values = Array.isArray(e.values) ? e.values.map(String).join(' ') : '';
    return `LabelSelectorRequirement{Key:${String(e.key ?? '')},Operator:${String(e.operator ?? '')},Values:[${values}],},`;
  }).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${mapStr}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
