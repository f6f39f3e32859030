// AlwaysAdmit (deprecated upstream): lets every request through. It exists so that a
// flag list written for upstream keeps working.
import type { AdmissionPlugin } from '../../interfaces.js';

export class AlwaysAdmit implements AdmissionPlugin {
  readonly name = 'AlwaysAdmit';

  handles(): boolean {
    return true;
  }

  async admit(): Promise<void> {}

  async validate(): Promise<void> {}
}
