import { expect } from 'chai';
import { fieldErrorMessage } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { defaultCustomResourceDefinition } from './defaults.js';
import { validateCustomResourceDefinition } from './validation.js';

const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } };

function crd(mutate: (spec: Record<string, any>, obj: KubeObject) => void): KubeObject {
  const obj: KubeObject = {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: structuredClone(schema) } }],
    },
  };
  mutate(obj.spec as Record<string, any>, obj);
  defaultCustomResourceDefinition(obj);
  obj.status = { storedVersions: ['v1'] };
  return obj;
}

const v1Literal = (storage: boolean) => 'apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:' + storage
  + ', Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), '
  + 'Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}';

const cases: Array<[string, (spec: Record<string, any>, obj: KubeObject) => void, string[]]> = [
  ['a valid CRD', () => undefined, []],
  ['a name that is not plural.group', (_s, o) => { o.metadata.name = 'gadgets.example.com'; },
    ['metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group']],
  ['a group without a dot', (s, o) => { s.group = 'example'; o.metadata.name = 'widgets.example'; },
    ['spec.group: Invalid value: "example": should be a domain with at least one dot']],
  ['a missing scope', (s) => { delete s.scope; }, ['spec.scope: Required value']],
  ['an unknown scope', (s) => { s.scope = 'Global'; }, ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']],
  ['no storage version', (s) => { s.versions[0].storage = false; },
    [`spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${v1Literal(false)}}: must have exactly one version marked as storage version`]],
  ['no versions at all', (s) => { delete s.versions; }, [
    'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion(nil): must have exactly one version marked as storage version',
    'status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions',
  ]],
  ['duplicate version names', (s) => { s.versions.push({ ...s.versions[0], storage: false }); },
    [`spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${v1Literal(true)}, ${v1Literal(false)}}: must contain unique version names`]],
  ['an invalid version name', (s) => { s.versions[0].name = 'V1'; }, [
    'spec.versions[0].name: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    'spec.version: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    'status.storedVersions: Invalid value: []string{"v1"}: must have the storage version V1',
    'status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions',
  ]],
  ['no schema', (s) => { delete s.versions[0].schema; }, ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']],
  ['missing names, kind equal to listKind', (s) => { s.names = { plural: 'widgets', kind: 'Widget', listKind: 'Widget', shortNames: ['W'] }; }, [
    'spec.names.shortNames[0]: Invalid value: "W": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
  ]],
  ['no kind', (s) => { s.names = { plural: 'widgets' }; }, ['spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value']],
  ['schema properties without a type', (s) => { s.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = { minimum: 1 }; },
    ['spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields']],
  ['a root that is not an object, $ref and uniqueItems', (s) => { s.versions[0].schema.openAPIV3Schema = { type: 'array', items: { type: 'string' }, uniqueItems: true, $ref: '#/x' }; }, [
    'spec.validation.openAPIV3Schema.$ref: Forbidden: $ref is not supported',
    'spec.validation.openAPIV3Schema.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
  ]],
  ['a root typed array', (s) => { s.versions[0].schema.openAPIV3Schema = { type: 'array', items: { type: 'string' } }; },
    ['spec.validation.openAPIV3Schema.type: Invalid value: "array": must be object at the root']],
  ['additionalProperties beside properties', (s) => { s.versions[0].schema.openAPIV3Schema.properties.spec.additionalProperties = { type: 'string' }; },
    ['spec.validation.openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive']],
  ['metadata restricted beyond name', (s) => { s.versions[0].schema.openAPIV3Schema.properties.metadata = { type: 'object', properties: { labels: { type: 'object' } } }; },
    ['spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified']],
  ['a default in top-level metadata', (s) => { s.versions[0].schema.openAPIV3Schema.properties.metadata = { type: 'object', properties: { name: { type: 'string', default: 'x' } } }; },
    ['spec.validation.openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata']],
  ['a typed anyOf branch', (s) => { s.versions[0].schema.openAPIV3Schema.properties.spec.anyOf = [{ type: 'object' }]; },
    ['spec.validation.openAPIV3Schema.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural']],
  ['int-or-string needs no type', (s) => { s.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }; }, []],
  ['a status root with more than allowed', (s) => { s.versions[0].subresources = { status: {} }; s.versions[0].schema.openAPIV3Schema.type = 'string'; }, [
    'spec.validation.openAPIV3Schema.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
    'spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
  ]],
  ['printer columns without type and path', (s) => { s.versions[0].additionalPrinterColumns = [{ name: 'Size', type: 'float', format: 'weird' }]; }, [
    'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
    'spec.additionalPrinterColumns[0].format: Invalid value: "weird": must be one of byte,date,date-time,double,float,int32,int64,password',
    'spec.additionalPrinterColumns[0].JSONPath: Required value',
  ]],
  ['scale paths outside spec and status', (s) => { s.versions[0].subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'status.replicas' } }; }, [
    'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
    'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
  ]],
  ['a webhook conversion without its config', (s) => { s.conversion = { strategy: 'Webhook' }; }, [
    'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
    'spec.conversion.conversionReviewVersions: Required value',
  ]],
  ['a webhook conversion over http with unknown review versions', (s) => {
    s.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://example.com/convert' }, conversionReviewVersions: ['v2'] } };
  }, [
    'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
  ]],
  ['a webhook config with strategy None', (s) => { s.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } }; }, [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]],
  ['a protected group without approval', (s, o) => { s.group = 'widgets.k8s.io'; o.metadata.name = 'widgets.widgets.k8s.io'; },
    ['metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111']],
  ['a validation rule that does not compile', (s) => { s.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.sise > 1' }]; }, [
    'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.sise > 1", Message:"", '
      + 'MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: compilation failed: ERROR: <input>:1:5: undefined field \'sise\'\n | self.sise > 1\n | ....^',
  ]],
  ['a transition rule in per-version schemas below a list', (s) => {
    s.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
      ports: { type: 'array', maxItems: 4, items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } } } } } } });
  }, ['spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[ports].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": '
    + 'oldSelf cannot be used on the uncorrelatable portion of the schema within spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[ports]']],
  ['valid validation rules', (s) => { s.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.size >= 0', message: 'size must not be negative' }]; }, []],
  ['per-version schemas that differ keep per-version paths', (s) => {
    s.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { a: {} } } } });
  }, ['spec.versions[1].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields']],
];

describe('apiextensions validation', () => {
  for (const [name, mutate, want] of cases) {
    it(name, () => {
      expect(validateCustomResourceDefinition(crd(mutate)).map((e) => fieldErrorMessage(e))).to.deep.equal(want);
    });
  }

  it('defaults singular, listKind and the conversion strategy', () => {
    const obj = crd(() => undefined);
    expect((obj.spec as Record<string, unknown>).names).to.deep.equal({ plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
    expect((obj.spec as Record<string, unknown>).conversion).to.deep.equal({ strategy: 'None' });
  });
});
