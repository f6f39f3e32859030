// Builds the admission chain from --enable-admission-plugins / --disable-admission-plugins.
import { AdmissionChain, type Admission, type AdmissionPlugin } from '../admission/interfaces.js';
import type { ServerDeps } from './deps.js';

export async function buildAdmission(_d: ServerDeps): Promise<Admission> {
  const plugins: AdmissionPlugin[] = [];
  return new AdmissionChain(plugins);
}
