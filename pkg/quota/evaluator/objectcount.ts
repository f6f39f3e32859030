// Object-count quota (`count/<resource>.<group>`), and the legacy names some core kinds
// also answer to (`configmaps`, `secrets`, ...). Creating one object charges one.
import type { Operation } from '../../admission/interfaces.js';
import { Quantity } from '../../util/quantity/index.js';
import type { ResourceList } from '../resources.js';
import type { Evaluator } from './interfaces.js';

export function objectCountName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The group and resource a `count/...` quota name counts; undefined for other names. */
export function parseObjectCountName(name: string): { group: string; resource: string } | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

export class ObjectCountEvaluator implements Evaluator {
  private readonly names: string[];

  constructor(readonly group: string, readonly resource: string, alias?: string) {
    this.names = [objectCountName(group, resource), ...(alias ? [alias] : [])];
  }

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  matchingResources(names: string[]): string[] {
    return names.filter((n) => this.names.includes(n));
  }

  matchesScope(): boolean {
    return false;
  }

  usage(): ResourceList {
    return new Map(this.names.map((n) => [n, Quantity.fromInt(1)]));
  }

  constraints(): undefined {
    return undefined;
  }
}
