// AlwaysPullImages: every container of a new or re-imaged pod pulls its image, so a
// pod cannot run an image cached on the node without the credentials to pull it.
// Validation re-checks after later mutating plugins and webhooks had their turn.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { notSupported } from '../../../apis/validation/field.js';
import { arr, containerLists, obj, str, type Obj } from '../../../apis/core/types.js';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import { plainError } from '../../../util/proxy/errors.js';

/** Every container of the spec with its field path (pods.VisitContainersWithPath). */
function containersWithPath(spec: Obj | undefined): Array<[Obj, string]> {
  if (!spec) return [];
  return containerLists.flatMap((list) => arr(spec[list]).map((c, i): [Obj, string] => [c, `spec.${list}[${i}]`]));
}

function images(spec: Obj | undefined): Set<string> {
  return new Set(containersWithPath(spec).map(([c]) => str(c.image)));
}

export class AlwaysPullImages implements AdmissionPlugin {
  readonly name = 'AlwaysPullImages';

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (this.ignores(a)) return;
    for (const [c] of containersWithPath(obj(a.object?.spec))) c.imagePullPolicy = 'Always';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (this.ignores(a)) return;
    const msgs = containersWithPath(obj(a.object?.spec))
      .filter(([c]) => c.imagePullPolicy !== 'Always')
      .map(([c, path]) => admissionForbidden(a,
        fieldErrorMessage(notSupported(`${path}.imagePullPolicy`, str(c.imagePullPolicy), ['Always']))).message);
    if (msgs.length === 0) return;
    // Upstream returns an aggregate of the refusals, which is no Status: 500, no reason.
    const unique = [...new Set(msgs)];
    throw plainError(unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`);
  }

  private ignores(a: AdmissionAttributes): boolean {
    if (a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object) return true;
    // An update that brings no image the pod did not already have pulls nothing new.
    if (a.operation !== 'UPDATE' || !a.oldObject) return false;
    const old = images(obj(a.oldObject.spec));
    return [...images(obj(a.object.spec))].every((img) => old.has(img));
  }
}
