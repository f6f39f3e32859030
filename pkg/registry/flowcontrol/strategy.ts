// FlowSchema and PriorityLevelConfiguration strategies: cluster-scoped, DNS-subdomain
// names, generation tracking, an empty status on create and a status subresource whose
// writes are checked only for their conditions (upstream's status strategies).
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { nameIsDNSSubdomain } from '../../apis/validation/names.js';
import { BaseStrategy } from '../generic/base-strategy.js';
import type { StrategyContext } from '../generic/strategy.js';
import { defaultFlowSchema, defaultPriorityLevel, type SharesField } from './defaults.js';
import { validateConditions, validateFlowSchema, validatePriorityLevel } from './validation.js';

type Obj = Record<string, unknown>;
const spec = (obj: KubeObject): Obj => (isPlainObject(obj.spec) ? obj.spec : {});

abstract class FlowControlStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    obj.status = {};
  }

  protected override validateObjectUpdate(obj: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === 'status') return validateConditions(obj.status, 'status');
    return this.validateObject(obj, ctx);
  }
}

export class FlowSchemaStrategy extends FlowControlStrategy {
  override applyDefaults(obj: KubeObject): void {
    defaultFlowSchema(obj);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateFlowSchema(obj.metadata.name ?? '', spec(obj), obj.status);
  }
}

export class PriorityLevelStrategy extends FlowControlStrategy {
  /** `shares`: the version's name for the limited level's concurrency shares. */
  constructor(private readonly shares: SharesField) {
    super();
  }

  override applyDefaults(obj: KubeObject): void {
    defaultPriorityLevel(obj, this.shares);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validatePriorityLevel(obj.metadata.name ?? '', spec(obj), obj.status, this.shares);
  }
}
