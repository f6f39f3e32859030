// core/v1 podtemplates: a PodTemplateSpec with upstream's defaults and validation.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { column, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { defaultPodTemplateSpec } from '../../../apis/core/defaults.js';
import { validatePodTemplateSpec } from '../../../apis/core/validation.js';
import { formatLabels, templateContainers } from '../../../apis/core/printers.js';
import { obj, type Obj } from '../../../apis/core/types.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class PodTemplateStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, tracksGeneration: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!obj(o.template)) o.template = {};
    defaultPodTemplateSpec(o.template as Obj);
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    return validatePodTemplateSpec(obj(o.template), 'template');
  }
}

export const podTemplateTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells: (o) => {
    const { names, images } = templateContainers(o.template);
    return [o.metadata.name ?? '', names, images, formatLabels(obj(obj(o.template)?.metadata)?.labels)];
  },
};

export const podtemplates: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new PodTemplateStrategy(),
  table: podTemplateTable,
};
