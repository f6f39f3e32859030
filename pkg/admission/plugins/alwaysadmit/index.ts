// AlwaysAdmit (deprecated upstream): lets every request through. It exists so that a
// flag list written for upstream keeps working.
import type { AdmissionPlugin, Operation } from '../../interfaces.js';

export class AlwaysAdmit implements AdmissionPlugin {
  readonly name = 'AlwaysAdmit';

  handles(_op: Operation): boolean {
    return true;
  }

  async admit(): Promise<void> {}

  async validate(): Promise<void> {}
}
