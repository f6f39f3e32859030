import { expect } from 'chai';
import { AdmissionChain, type AdmissionPlugin, type Operation } from './interfaces.js';
import { attrs, rejection } from './test-attributes.js';
import { errors } from '../runtime/errors.js';

interface Observation { plugin: string | undefined; operation: Operation; type: string; rejected: boolean; seconds: number }

/** A chain whose latency observations land in `seen`; `calls` names each plugin called. */
function chainOf(plugins: AdmissionPlugin[]) {
  const seen: Observation[] = [];
  const chain = new AdmissionChain(plugins, (plugin, operation, type) => (rejected, seconds) => {
    seen.push({ plugin, operation, type, rejected, seconds });
  });
  return { chain, seen };
}

describe('AdmissionChain: plugins that name their resources', () => {
  const calls: string[] = [];
  const podsOnly: AdmissionPlugin = {
    name: 'PodsOnly', resources: new Set(['/pods']), handles: () => true,
    async admit(a) { calls.push(`admit ${a.resource}`); },
    async validate(a) {
      calls.push(`validate ${a.resource}`);
      if (a.name === 'refused') throw errors.forbiddenMessage('refused');
    },
  };
  const everything: AdmissionPlugin = { name: 'Everything', handles: () => true, async admit(a) { calls.push(`all ${a.resource}`); } };
  beforeEach(() => { calls.length = 0; });

  it('records a plugin for another resource as taking no time, without calling it', async () => {
    const { chain, seen } = chainOf([podsOnly, everything]);
    await chain.admit(attrs({ resource: 'configmaps' }));
    await chain.validate(attrs({ resource: 'configmaps' }));
    expect(calls).to.deep.equal(['all configmaps']);
    expect(seen.filter((o) => o.plugin === 'PodsOnly').map((o) => [o.type, o.rejected, o.seconds])).to.deep.equal([['admit', false, 0], ['validate', false, 0]]);
    expect(seen.filter((o) => o.plugin === 'Everything').map((o) => o.type)).to.deep.equal(['admit']);
    expect(seen.filter((o) => o.plugin === undefined).map((o) => o.type)).to.deep.equal(['admit', 'validate']);
  });

  it('calls it for its own resources, subresources included, and its rejection counts', async () => {
    const { chain, seen } = chainOf([podsOnly, everything]);
    await chain.admit(attrs({ resource: 'pods', subresource: 'ephemeralcontainers' }));
    const err = await rejection(chain.validate(attrs({ resource: 'pods', name: 'refused' })));
    expect(err.code).to.equal(403);
    expect(calls).to.deep.equal(['admit pods', 'all pods', 'validate pods']);
    expect(seen.filter((o) => o.type === 'validate').map((o) => [o.plugin, o.rejected])).to.deep.equal([['PodsOnly', true], [undefined, true]]);
  });

  it('matches the group too: a pods resource of another group is not its own', async () => {
    const { chain } = chainOf([podsOnly]);
    await chain.admit(attrs({ group: 'metrics.k8s.io', resource: 'pods' }));
    expect(calls).to.deep.equal([]);
  });
});

describe('AdmissionChain: plugins that answer at once', () => {
  const calls: string[] = [];
  const at = (name: string, refuse = false): AdmissionPlugin => ({
    name, handles: () => true,
    admit(a) {
      calls.push(name);
      if (refuse && a.name === 'refused') throw errors.forbiddenMessage(`${name} refused`);
    },
  });
  const later = (name: string, refuse = false): AdmissionPlugin => ({
    name, handles: () => true,
    async admit(a) {
      await new Promise((r) => setImmediate(r));
      calls.push(name);
      if (refuse && a.name === 'refused') throw errors.forbiddenMessage(`${name} refused`);
    },
  });
  beforeEach(() => { calls.length = 0; });

  it('runs them in order around plugins that wait, each recorded once, the phase once', async () => {
    const { chain, seen } = chainOf([at('A'), later('B'), at('C'), later('D'), at('E')]);
    await chain.admit(attrs({}));
    expect(calls).to.deep.equal(['A', 'B', 'C', 'D', 'E']);
    expect(seen.map((o) => [o.plugin, o.rejected])).to.deep.equal([['A', false], ['B', false], ['C', false], ['D', false], ['E', false], [undefined, false]]);
  });

  it('a refusal at once rejects the phase: recorded as refused, the plugins after it neither called nor recorded', async () => {
    for (const plugins of [[at('A'), at('B', true), at('C')], [later('A'), at('B', true), at('C')]]) {
      calls.length = 0;
      const { chain, seen } = chainOf(plugins);
      const err = await rejection(chain.admit(attrs({ name: 'refused' })));
      expect(err.message).to.equal('B refused');
      expect(calls).to.deep.equal(['A', 'B']);
      expect(seen.map((o) => [o.plugin, o.rejected])).to.deep.equal([['A', false], ['B', true], [undefined, true]]);
    }
  });
});
