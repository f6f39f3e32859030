// apps/v1 controllerrevisions: immutable snapshots of a controller's template.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { nonNegative } from '../../../apis/apps/validation.js';
import { invalid, required } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { FieldImmutableErrorMsg } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class ControllerRevisionStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain });
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    if (o.data === undefined || o.data === null) errs.push(required('data', 'data is mandatory'));
    errs.push(...nonNegative(o.revision, 'revision'));
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    if (!deepEqual(o.data, old.data)) errs.push(invalid('data', null, FieldImmutableErrorMsg));
    return errs;
  }
}

export const controllerRevisionTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
    ageColumn(),
  ],
  cells: (o) => {
    const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
    return [o.metadata.name ?? '', owner ? owner.name : '<none>', typeof o.revision === 'number' ? o.revision : 0, humanAge(o.metadata.creationTimestamp)];
  },
};

export const controllerrevisions: ResourceDef = {
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new ControllerRevisionStrategy(),
  table: controllerRevisionTable,
};
