import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { staticSource } from '../../source.js';
import type { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { RuntimeClass } from './index.js';
import { mergeTolerations } from '../../../util/tolerations/tolerations.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const rc = (name: string, extra: Obj = {}): KubeObject => ({ metadata: { name }, handler: 'h', ...extra });
const pod = (spec: Obj = {}): KubeObject => ({ metadata: { name: 'p', namespace: 'team' }, spec: { containers: [], ...spec } });
const attrs = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '',
  namespace: 'team', name: 'p', object, user: { name: 'u', groups: [] }, dryRun: false, ...over,
});

async function rejection(p: Promise<void>): Promise<StatusError> {
  try { await p; } catch (e) { return e as StatusError; }
  throw new Error('admitted');
}

async function run(plugin: RuntimeClass, a: AdmissionAttributes): Promise<void> {
  await plugin.admit(a);
  await plugin.validate(a);
}

const kata = rc('kata', {
  overhead: { podFixed: { cpu: '250m', memory: '0.5Gi' } },
  scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
});

describe('RuntimeClass admission', () => {
  it('fills overhead and merges the class\'s node selector and tolerations', async () => {
    const p = pod({ runtimeClassName: 'kata', nodeSelector: { disk: 'ssd' }, tolerations: [{ key: 'a', operator: 'Exists' }] });
    await run(new RuntimeClass(staticSource([kata])), attrs(p));
    expect(p.spec).to.deep.include({
      overhead: { cpu: '250m', memory: '512Mi' },
      nodeSelector: { disk: 'ssd', sandbox: 'yes' },
      tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }],
    });
  });

  it('accepts a stated overhead equal by value, refuses one that differs', async () => {
    const plugin = new RuntimeClass(staticSource([kata]));
    await run(plugin, attrs(pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '512Mi' } })));
    const err = await rejection(run(plugin, attrs(pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  });

  it('refuses an overhead without a class that defines one, and an unknown class', async () => {
    const plugin = new RuntimeClass(staticSource([rc('plain')]));
    expect((await rejection(run(plugin, attrs(pod({ runtimeClassName: 'plain', overhead: { cpu: '1' } }))))).message)
      .to.equal('pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    expect((await rejection(run(plugin, attrs(pod({ overhead: {} }))))).message)
      .to.equal('pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    expect((await rejection(run(plugin, attrs(pod({ runtimeClassName: 'gone' }))))).message)
      .to.equal('pods "p" is forbidden: pod rejected: RuntimeClass "gone" not found');
    // A class only storage has yet is found.
    await run(new RuntimeClass(staticSource([], [kata])), attrs(pod({ runtimeClassName: 'kata' })));
  });

  it('refuses a node selector conflicting with the class\'s', async () => {
    const err = await rejection(run(new RuntimeClass(staticSource([kata])), attrs(pod({ runtimeClassName: 'kata', nodeSelector: { sandbox: 'no' } }))));
    expect(err.message).to.equal('pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no');
  });

  it('ignores pods without a class, subresources and updates', async () => {
    const p = pod();
    await run(new RuntimeClass(staticSource([])), attrs(p));
    expect(p.spec).to.deep.equal({ containers: [] });
    await run(new RuntimeClass(staticSource([])), attrs(pod({ runtimeClassName: 'x' }), { subresource: 'status' }));
    expect(new RuntimeClass(staticSource([])).handles('UPDATE')).to.equal(false);
  });
});

describe('mergeTolerations', () => {
  it('drops tolerations another covers and keeps the first of equal ones', () => {
    const t = (o: Obj) => o;
    expect(mergeTolerations([t({ key: 'a', operator: 'Equal', value: 'v', effect: 'NoSchedule' })], [t({ key: 'a', operator: 'Exists' })]))
      .to.deep.equal([{ key: 'a', operator: 'Exists' }]);
    expect(mergeTolerations([t({ key: 'a', operator: 'Exists' })], [t({ key: 'a', operator: 'Exists' })])).to.deep.equal([{ key: 'a', operator: 'Exists' }]);
    expect(mergeTolerations([t({ operator: 'Exists' })], [t({ key: 'b', operator: 'Exists', effect: 'NoExecute' })])).to.deep.equal([{ operator: 'Exists' }]);
    // A shorter NoExecute toleration is not covered by one with a longer bound.
    const short = t({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 });
    const long = t({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 100 });
    expect(mergeTolerations([long], [short])).to.deep.equal([long]);
    const forever = t({ key: 'k', operator: 'Exists', effect: 'NoExecute' });
    expect(mergeTolerations([short], [forever])).to.deep.equal([forever]);
    expect(mergeTolerations([t({ key: 'x', operator: 'Exists' })], [t({ key: 'y', operator: 'Exists' })])).to.have.length(2);
  });
});
