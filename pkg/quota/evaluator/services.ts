// Service quota: `services`, `count/services`, `services.loadbalancers` and
// `services.nodeports` (the node ports a NodePort or LoadBalancer service will take).
// Updates are charged too: a service can change type.
import type { Operation } from '../../admission/interfaces.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { Quantity } from '../../util/quantity/index.js';
import type { ResourceList } from '../resources.js';
import type { Evaluator } from './interfaces.js';
import { objectCountName } from './objectcount.js';

const serviceCount = objectCountName('', 'services');
const serviceResources = [serviceCount, 'services', 'services.loadbalancers', 'services.nodeports'];

export class ServiceEvaluator implements Evaluator {
  readonly group = '';
  readonly resource = 'services';

  handles(operation: Operation, subresource: string): boolean {
    return subresource === '' && (operation === 'CREATE' || operation === 'UPDATE');
  }

  matchingResources(names: string[]): string[] {
    return names.filter((n) => serviceResources.includes(n));
  }

  matchesScope(): boolean {
    return false;
  }

  usage(svc: KubeObject): ResourceList {
    const one = Quantity.fromInt(1);
    const out: ResourceList = new Map([[serviceCount, one], ['services', one]]);
    const spec = isPlainObject(svc.spec) ? svc.spec : {};
    const ports = Array.isArray(spec.ports) ? (spec.ports as Array<{ nodePort?: number }>) : [];
    if (spec.type === 'NodePort') {
      out.set('services.nodeports', Quantity.fromInt(ports.length));
    } else if (spec.type === 'LoadBalancer') {
      // Without node-port allocation only the ports asking for one explicitly take one.
      const taken = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => !!p.nodePort).length : ports.length;
      out.set('services.nodeports', Quantity.fromInt(taken));
      out.set('services.loadbalancers', one);
    }
    return out;
  }

  constraints(): undefined {
    return undefined;
  }
}
