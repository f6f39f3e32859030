// The garbage collector's view of ownership: a node per object uid with its owner
// references and the uids of its dependents. Owners seen only through references are
// virtual until an informer shows them (or a lookup proves them gone).
import type { OwnerReference } from '../../runtime/object.js';

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/**
 * The dependents of a node that has none, shared: most objects own nothing, and a set of
 * their own was an allocation per object seen and memory per object kept. Only
 * OwnershipGraph.addDependent adds, replacing it first.
 */
export const noDependents: Set<string> = new Set();

export interface GraphNode {
  ref: ObjectRef;
  owners: OwnerReference[];
  /** noDependents until one is added (addDependent). */
  dependents: Set<string>;
  virtual: boolean;
  beingDeleted: boolean;
  /** Deleted in the foreground: waits for its blocking dependents. */
  deletingDependents: boolean;
}

export class OwnershipGraph {
  private readonly nodes = new Map<string, GraphNode>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** The owner's node, made virtual when the owner was not seen yet. Returns it and whether it is new. */
  ownerNode(ref: OwnerReference, dependentNamespace: string, ownerNamespaced: boolean): { node: GraphNode; created: boolean } {
    const existing = this.nodes.get(ref.uid);
    if (existing) return { node: existing, created: false };
    const node: GraphNode = {
      ref: { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: ownerNamespaced ? dependentNamespace : '' },
      owners: [], dependents: noDependents, virtual: true, beingDeleted: false, deletingDependents: false,
    };
    this.nodes.set(ref.uid, node);
    return { node, created: true };
  }

  addDependent(owner: GraphNode, uid: string): void {
    if (owner.dependents === noDependents) owner.dependents = new Set();
    owner.dependents.add(uid);
  }

  put(node: GraphNode): void {
    this.nodes.set(node.ref.uid, node);
  }

  remove(uid: string): void {
    this.nodes.delete(uid);
  }

  /** Dependents whose reference to `owner` blocks its foreground deletion. */
  blockingDependents(owner: GraphNode): GraphNode[] {
    const out: GraphNode[] = [];
    for (const uid of owner.dependents) {
      const dep = this.nodes.get(uid);
      if (dep && !dep.virtual && dep.owners.some((r) => r.uid === owner.ref.uid && r.blockOwnerDeletion === true)) out.push(dep);
    }
    return out;
  }
}
