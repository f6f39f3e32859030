// The in-memory policy every decision reads: the four RBAC kinds, kept current by
// watch-fed informers, with bindings bucketed by subject so that a decision looks at
// the bindings that can name the user rather than at all of them.
import type { InformerFactory } from '../../client/factory.js';
import type { KubeObject } from '../../runtime/object.js';
import { serviceAccountOf } from './subjects.js';
import {
  rbacGroup, type BindingObject, type ClusterRoleObject, type PolicySource, type RoleObject, type UserLike,
} from './types.js';

const roleKey = (b: BindingObject): string => `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`;

class BindingBucket {
  private all = new Map<string, BindingObject>();
  private bySubject = new Map<string, Set<string>>();
  /** Bindings with a subject no key describes (unknown kinds): always visited. */
  private unkeyed = new Set<string>();
  /** By roleRef (`kind/name`): who-can judges each role once, then takes its bindings' subjects. */
  private byRole = new Map<string, Map<string, BindingObject>>();

  constructor(private readonly namespace: string) {}

  get size(): number { return this.all.size; }

  /** Every binding, grouped by the role it references. */
  byRoleRef(): Iterable<Map<string, BindingObject>> { return this.byRole.values(); }

  upsert(b: BindingObject): void {
    const key = b.metadata.name ?? '';
    this.remove(key);
    this.all.set(key, b);
    const role = roleKey(b);
    let group = this.byRole.get(role);
    if (!group) this.byRole.set(role, (group = new Map()));
    group.set(key, b);
    for (const k of this.subjectKeys(b)) {
      if (k === undefined) { this.unkeyed.add(key); continue; }
      let set = this.bySubject.get(k);
      if (!set) this.bySubject.set(k, (set = new Set()));
      set.add(key);
    }
  }

  remove(key: string): void {
    const old = this.all.get(key);
    if (!old) return;
    this.all.delete(key);
    this.unkeyed.delete(key);
    const role = roleKey(old);
    const group = this.byRole.get(role);
    group?.delete(key);
    if (group && group.size === 0) this.byRole.delete(role);
    for (const k of this.subjectKeys(old)) {
      if (k === undefined) continue;
      const set = this.bySubject.get(k);
      set?.delete(key);
      if (set && set.size === 0) this.bySubject.delete(k);
    }
  }

  *candidates(user: UserLike): Iterable<BindingObject> {
    const seen = new Set<string>();
    const keys = [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)];
    const sa = serviceAccountOf(user.name);
    if (sa) keys.push(`sa:${sa[0]}:${sa[1]}`);
    for (const k of keys) {
      for (const name of this.bySubject.get(k) ?? []) {
        if (seen.has(name)) continue;
        seen.add(name);
        yield this.all.get(name)!;
      }
    }
    for (const name of this.unkeyed) {
      if (!seen.has(name)) { seen.add(name); yield this.all.get(name)!; }
    }
  }

  private *subjectKeys(b: BindingObject): Iterable<string | undefined> {
    for (const s of b.subjects ?? []) {
      if (s?.kind === 'User') yield `u:${s.name}`;
      else if (s?.kind === 'Group') yield `g:${s.name}`;
      else if (s?.kind === 'ServiceAccount') {
        const ns = s.namespace || this.namespace;
        if (ns) yield `sa:${ns}:${s.name}`;
      } else yield undefined;
    }
  }
}

export interface PolicyObjects {
  roles?: RoleObject[];
  clusterRoles?: ClusterRoleObject[];
  roleBindings?: BindingObject[];
  clusterRoleBindings?: BindingObject[];
}

export class PolicyIndex implements PolicySource {
  private roles = new Map<string, Map<string, RoleObject>>();
  private clusterRoles = new Map<string, ClusterRoleObject>();
  private roleBindings = new Map<string, BindingBucket>();
  private clusterRoleBindings = new BindingBucket('');

  static fromObjects(o: PolicyObjects): PolicyIndex {
    const idx = new PolicyIndex();
    for (const r of o.roles ?? []) idx.upsertRole(r);
    for (const r of o.clusterRoles ?? []) idx.upsertClusterRole(r);
    for (const b of o.roleBindings ?? []) idx.upsertRoleBinding(b);
    for (const b of o.clusterRoleBindings ?? []) idx.upsertClusterRoleBinding(b);
    return idx;
  }

  getRole(namespace: string, name: string): RoleObject | undefined {
    return this.roles.get(namespace)?.get(name);
  }

  getClusterRole(name: string): ClusterRoleObject | undefined {
    return this.clusterRoles.get(name);
  }

  listClusterRoles(): ClusterRoleObject[] {
    return [...this.clusterRoles.values()];
  }

  roleBindingsFor(namespace: string, user: UserLike): Iterable<BindingObject> {
    return this.roleBindings.get(namespace)?.candidates(user) ?? [];
  }

  clusterRoleBindingsFor(user: UserLike): Iterable<BindingObject> {
    return this.clusterRoleBindings.candidates(user);
  }

  /** Every RoleBinding of a namespace, whoever it names, grouped by role (who-can walks them all). */
  roleBindingsByRoleIn(namespace: string): Iterable<Map<string, BindingObject>> {
    return this.roleBindings.get(namespace)?.byRoleRef() ?? [];
  }

  clusterRoleBindingsByRole(): Iterable<Map<string, BindingObject>> {
    return this.clusterRoleBindings.byRoleRef();
  }

  upsertRole(r: RoleObject): void {
    const ns = r.metadata.namespace ?? '';
    let m = this.roles.get(ns);
    if (!m) this.roles.set(ns, (m = new Map()));
    m.set(r.metadata.name ?? '', r);
  }

  deleteRole(r: KubeObject): void {
    const ns = r.metadata.namespace ?? '';
    const m = this.roles.get(ns);
    m?.delete(r.metadata.name ?? '');
    if (m && m.size === 0) this.roles.delete(ns);
  }

  upsertClusterRole(r: ClusterRoleObject): void { this.clusterRoles.set(r.metadata.name ?? '', r); }
  deleteClusterRole(r: KubeObject): void { this.clusterRoles.delete(r.metadata.name ?? ''); }

  upsertRoleBinding(b: BindingObject): void {
    const ns = b.metadata.namespace ?? '';
    let bucket = this.roleBindings.get(ns);
    if (!bucket) this.roleBindings.set(ns, (bucket = new BindingBucket(ns)));
    bucket.upsert(b);
  }

  deleteRoleBinding(b: KubeObject): void {
    const ns = b.metadata.namespace ?? '';
    const bucket = this.roleBindings.get(ns);
    bucket?.remove(b.metadata.name ?? '');
    if (bucket && bucket.size === 0) this.roleBindings.delete(ns);
  }

  upsertClusterRoleBinding(b: BindingObject): void { this.clusterRoleBindings.upsert(b); }
  deleteClusterRoleBinding(b: KubeObject): void { this.clusterRoleBindings.remove(b.metadata.name ?? ''); }

  /** Feeds this index from the replica's shared informers (each replica watches etcd itself). */
  attach(informers: InformerFactory): void {
    const wire = (plural: string, up: (o: KubeObject) => void, del: (o: KubeObject) => void): void => {
      informers.informerFor(rbacGroup, plural).addHandlers({ add: up, update: (o) => up(o), delete: del });
    };
    wire('roles', (o) => this.upsertRole(o as RoleObject), (o) => this.deleteRole(o));
    wire('clusterroles', (o) => this.upsertClusterRole(o as ClusterRoleObject), (o) => this.deleteClusterRole(o));
    wire('rolebindings', (o) => this.upsertRoleBinding(o as BindingObject), (o) => this.deleteRoleBinding(o));
    wire('clusterrolebindings', (o) => this.upsertClusterRoleBinding(o as BindingObject), (o) => this.deleteClusterRoleBinding(o));
  }
}
