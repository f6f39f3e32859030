// OwnerReferencesPermissionEnforcement: changing metadata.ownerReferences of an existing
// object needs `delete` on it (whoever creates an object could as well not have created
// it), and making a reference block its owner's deletion needs `update` on the owner's
// `finalizers` subresource. pods/status is exempt: its strategy keeps ownerReferences.
import { isDeepStrictEqual } from 'node:util';
import type { Authorizer, Attributes, Decision } from '../../../authorization/interfaces.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import type { OwnerReference } from '../../../runtime/object.js';

/** Upstream's REST mapping for one version: the resource serving group/version/kind. */
export type KindResolver = (group: string, version: string, kind: string) => string | undefined;

const exempt = [{ group: '', resource: 'pods', subresource: 'status' }];

const refsOf = (o: { metadata: { ownerReferences?: OwnerReference[] } } | undefined): OwnerReference[] => o?.metadata.ownerReferences ?? [];
const blocking = (r: OwnerReference): boolean => r.blockOwnerDeletion === true;
/** Compared as they are written to storage, so absent and undefined fields are equal. */
const normalized = (r: OwnerReference): unknown => JSON.parse(JSON.stringify(r));

/** Go's `%v, %v` of the authorizer's reason and error. */
const why = (d: Decision): string => `${d.reason}, ${d.error ?? '<nil>'}`;

export class OwnerReferencesPermissionEnforcement implements AdmissionPlugin {
  readonly name = 'OwnerReferencesPermissionEnforcement';
  constructor(private readonly authz: Authorizer, private readonly resourceFor: KindResolver) {}

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!a.object) return;
    if (exempt.some((e) => e.group === a.group && e.resource === a.resource && e.subresource === a.subresource)) return;
    const newRefs = refsOf(a.object);
    const oldRefs = refsOf(a.oldObject);
    const changing = a.oldObject
      ? newRefs.length !== oldRefs.length || newRefs.some((r, i) => !isDeepStrictEqual(normalized(r), normalized(oldRefs[i]!)))
      : newRefs.length > 0;
    if (!changing) return;

    if (a.operation !== 'CREATE') {
      const d = await this.ask(a, {
        verb: 'delete', apiGroup: a.group, apiVersion: a.version, resource: a.resource, subresource: a.subresource, name: a.name,
      });
      if (d.decision !== 'allow') throw admissionForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${why(d)}`);
    }

    const oldByUID = new Map(oldRefs.map((r) => [r.uid, r]));
    const newlyBlocking = newRefs.filter((r) => blocking(r) && !(a.oldObject && oldByUID.has(r.uid) && blocking(oldByUID.get(r.uid)!)));
    for (const ref of newlyBlocking) {
      let target: { group: string; version: string; resource: string };
      try {
        target = this.mapping(ref);
      } catch (err) {
        throw admissionForbidden(a, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${(err as Error).message}`);
      }
      // An owner reference can only name an object in the same namespace.
      const d = await this.ask(a, {
        verb: 'update', apiGroup: target.group, apiVersion: target.version, resource: target.resource, subresource: 'finalizers', name: ref.name,
      });
      if (d.decision !== 'allow') {
        throw admissionForbidden(a, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${why(d)}`);
      }
    }
  }

  private mapping(ref: OwnerReference): { group: string; version: string; resource: string } {
    const parts = (ref.apiVersion ?? '').split('/');
    if (parts.length > 2 || (parts.length === 2 && (!parts[0] || !parts[1]))) throw new Error(`unexpected GroupVersion string: ${ref.apiVersion}`);
    const [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0] ?? ''];
    const resource = this.resourceFor(group, version, ref.kind);
    if (!resource) throw new Error(`no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`);
    return { group, version, resource };
  }

  private ask(a: AdmissionAttributes, o: Pick<Attributes, 'verb' | 'apiGroup' | 'apiVersion' | 'resource' | 'subresource' | 'name'>): Promise<Decision> {
    return this.authz.authorize({ user: a.user, isResourceRequest: true, path: '', namespace: a.namespace, ...o })
      .catch((err: unknown) => ({ decision: 'noOpinion' as const, reason: '', error: err instanceof Error ? err.message : String(err) }));
  }
}
