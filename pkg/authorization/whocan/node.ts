// The Node authorizer's subjects: kubelets, users system:node:<name> in group
// system:nodes. An action it allows any node (its static rules, a lease create) answers
// the group; an action it allows only through the graph (a secret a bound pod mounts)
// or by name (a node's own lease) answers those nodes' users.
import type { NodeAuthorizer } from '../node/index.js';
import { noSubjects, type Action, type AllowedSubjects, type SubjectLocator } from './interfaces.js';

const nodesGroup = 'system:nodes';
/** No node is named so: what this node may do, every node may. */
const anyNode = ' any node ';

export class NodeSubjectLocator implements SubjectLocator {
  constructor(private readonly node: NodeAuthorizer) {}

  async allowedSubjects(action: Action): Promise<AllowedSubjects> {
    const out = noSubjects();
    const allows = async (node: string) =>
      (await this.node.authorize({ ...action, user: { name: `system:node:${node}`, groups: [nodesGroup] } })).decision === 'allow';
    if (await allows(anyNode)) {
      out.groups.add(nodesGroup);
      return out;
    }
    const candidates = this.node.graph.nodeNames();
    if (action.name) candidates.add(action.name);
    for (const n of candidates) if (n && await allows(n)) out.users.add(`system:node:${n}`);
    return out;
  }
}
