// AlwaysDeny (deprecated upstream): refuses every write, in both phases, with 403.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';

const why = 'admission control is denying all modifications';

export class AlwaysDeny implements AdmissionPlugin {
  readonly name = 'AlwaysDeny';

  handles(_op: Operation): boolean {
    return true;
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    throw admissionForbidden(a, why);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    throw admissionForbidden(a, why);
  }
}
