// Node mode: upstream's node authorizer for kubelets (users system:node:<name> in group
// system:nodes). Reads of secrets, configmaps, claims, volumes and attachments, and
// service-account tokens, need a path in the graph from the object to the node; node
// leases only under the node's own name in kube-node-lease; everything else is judged
// by the static system:node rules.
import type { InformerFactory } from '../../client/factory.js';
import type { KubeObject } from '../../runtime/object.js';
import type { Attributes, Authorizer, Decision, RuleResolver, RulesResult } from '../interfaces.js';
import { rulesAllow } from '../rbac/rules.js';
import type { PolicyRule } from '../rbac/types.js';
import { NodeGraph, type VertexType } from './graph.js';

export function nodeIdentity(user: { name: string; groups: string[] }): { isNode: boolean; name: string } {
  if (!user.groups.includes('system:nodes') || !user.name.startsWith('system:node:')) return { isNode: false, name: '' };
  return { isNode: true, name: user.name.slice('system:node:'.length) };
}

const allow = (): Decision => ({ decision: 'allow', reason: '' });
const no = (reason: string): Decision => ({ decision: 'noOpinion', reason });

export class NodeAuthorizer implements Authorizer, RuleResolver {
  readonly name = 'Node';
  readonly graph = new NodeGraph();

  constructor(private readonly nodeRules: PolicyRule[]) {}

  /** Feeds the graph from whichever of the resources this server serves. */
  attach(informers: InformerFactory): void {
    const wire = (group: string, plural: string, up: (o: KubeObject) => void, del: (o: KubeObject) => void): void => {
      try {
        informers.informerFor(group, plural).addHandlers({ add: up, update: (o) => up(o), delete: del });
      } catch {
        // Not served (yet): nothing can reference through it.
      }
    };
    wire('', 'pods', (o) => this.graph.upsertPod(o), (o) => this.graph.deletePod(o));
    wire('', 'persistentvolumeclaims', (o) => this.graph.upsertClaim(o), (o) => this.graph.deleteClaim(o));
    wire('', 'persistentvolumes', (o) => this.graph.upsertVolume(o), (o) => this.graph.deleteVolume(o));
    wire('storage.k8s.io', 'volumeattachments', (o) => this.graph.upsertAttachment(o), (o) => this.graph.deleteAttachment(o));
  }

  async authorize(a: Attributes): Promise<Decision> {
    const id = nodeIdentity(a.user);
    if (!id.isNode) return no('');
    if (!id.name) return no(`unknown node for user "${a.user.name}"`);
    if (a.isResourceRequest) {
      switch (`${a.apiGroup}/${a.resource}`) {
        case '/secrets': return this.readNamespaced(id.name, 'secret', a);
        case '/configmaps': return this.readNamespaced(id.name, 'configmap', a);
        case '/persistentvolumeclaims':
          if (a.subresource === 'status') return this.statusUpdate(id.name, a);
          return this.get(id.name, 'pvc', a);
        case '/persistentvolumes': return this.get(id.name, 'pv', a);
        case 'storage.k8s.io/volumeattachments': return this.get(id.name, 'volumeattachment', a);
        case '/serviceaccounts': return this.createToken(id.name, a);
        case 'coordination.k8s.io/leases': return this.lease(id.name, a);
        case 'storage.k8s.io/csinodes': return this.csiNode(id.name, a);
      }
    }
    return rulesAllow(a, this.nodeRules) ? allow() : no('');
  }

  async rulesFor(user: { name: string; groups: string[] }): Promise<RulesResult> {
    if (nodeIdentity(user).isNode) {
      return { resourceRules: [], nonResourceRules: [], incomplete: true, error: 'node authorizer does not support user rule resolution' };
    }
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }

  private readNamespaced(node: string, t: VertexType, a: Attributes): Decision {
    if (!['get', 'list', 'watch'].includes(a.verb)) return no('can only read resources of this type');
    if (a.subresource) return no('cannot read subresource');
    if (!a.namespace) return no('can only read namespaced object of this type');
    return this.path(node, t, a);
  }

  private get(node: string, t: VertexType, a: Attributes): Decision {
    if (a.verb !== 'get') return no('can only get individual resources of this type');
    if (a.subresource) return no('cannot get subresource');
    return this.path(node, t, a);
  }

  private statusUpdate(node: string, a: Attributes): Decision {
    if (!['update', 'patch'].includes(a.verb)) return no('can only get/update/patch this type');
    return this.path(node, 'pvc', a);
  }

  private createToken(node: string, a: Attributes): Decision {
    if (a.verb !== 'create' || !a.name) return no('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return no('can only create token subresource of serviceaccount');
    return this.path(node, 'serviceaccount', a);
  }

  private path(node: string, t: VertexType, a: Attributes): Decision {
    if (!a.name) return no('No Object name found');
    if (!this.graph.hasPathFrom(node, t, a.namespace, a.name)) return no(`no relationship found between node '${node}' and this object`);
    return allow();
  }

  private lease(node: string, a: Attributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== 'kube-node-lease') return no('can only access leases in the "kube-node-lease" system namespace');
    if (a.verb !== 'create' && a.name !== node) return no('can only access node lease with the same name as the requesting node');
    return allow();
  }

  private csiNode(node: string, a: Attributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return no('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) return no('can only access CSINode with the same name as the requesting node');
    return allow();
  }
}
