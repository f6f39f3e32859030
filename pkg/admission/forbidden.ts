// admission.NewForbidden: a plugin's refusal as 403, naming the request's resource and
// the object (the request's name, else the object's, else its generateName).
import { errors, type StatusError } from '../runtime/errors.js';
import type { AdmissionAttributes } from './interfaces.js';

export function admissionForbidden(a: AdmissionAttributes, why: string): StatusError {
  const name = a.name || a.object?.metadata.name || a.object?.metadata.generateName || 'Unknown';
  return errors.forbidden({ group: a.group, resource: a.resource }, name, why);
}
