// ServiceAccount: name format; secret references keep only their name.
import type { KubeObject } from '../../../runtime/object.js';
import { isPlainObject } from '../../../runtime/object.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

/** References to Secrets are by name within the account's namespace; anything else is dropped. */
function cleanSecretReferences(obj: KubeObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = obj.secrets.map((ref) => {
    const name = isPlainObject(ref) && typeof ref.name === 'string' ? ref.name : '';
    return name ? { name } : {};
  });
}

export class ServiceAccountStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain });
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    cleanSecretReferences(obj);
  }

  protected override prepareObjectForUpdate(obj: KubeObject): void {
    cleanSecretReferences(obj);
  }
}
