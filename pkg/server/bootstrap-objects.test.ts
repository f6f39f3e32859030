import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AdmissionChain } from '../admission/interfaces.js';
import { bootstrapPolicy } from '../bootstrappolicy/index.js';
import { resetFeatureGates } from '../features/gates.js';
import { buildScheme } from '../registry/index.js';
import type { KubeObject } from '../runtime/object.js';
import { bootstrapWriter, capturingStorage, formatBootstrapObjects, makeBootstrapObjects, runBootstrapHooks } from './bootstrap-objects-gen.js';
import { blankClockFields, preparedBootstrapObject } from './bootstrap-objects.js';

const generatedFile = fileURLToPath(new URL('../../../pkg/generated/bootstrap-objects.json', import.meta.url));

/**
 * The hooks' writes, each key's last object as JSON (key order counts) with uid and times
 * blanked, once checked set: each time read from the clock during the writes (the second
 * it fell in). No order between them is assumed: as upstream's, the field manager stamps
 * its time before mutating admission and creationTimestamp is read after it, so under load
 * a create's managedFields time may be a second before its creationTimestamp, and a later
 * write (an APIService's status) seconds after it.
 */
async function writeAll(prepared: boolean, admission = new AdmissionChain()): Promise<Map<string, string>> {
  const written = new Map<string, KubeObject>();
  const scheme = buildScheme();
  const from = Math.floor(Date.now() / 1000) * 1000;
  await runBootstrapHooks(bootstrapWriter(capturingStorage(written), scheme, prepared ? preparedBootstrapObject : undefined, admission), scheme);
  const to = Date.now();
  const duringWrites = (time: string | null | undefined, what: string) => {
    expect(time, what).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(time!), `${what} ${time} between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}`).to.be.within(from, to);
  };
  return new Map([...written].map(([key, obj]) => {
    expect(obj.metadata.uid, key).to.match(/^[0-9a-f-]{36}$/);
    duringWrites(obj.metadata.creationTimestamp, `${key} creationTimestamp`);
    for (const e of obj.metadata.managedFields ?? []) duringWrites(e.time, `${key} managedFields time`);
    return [key, JSON.stringify(blankClockFields(obj))];
  }));
}

/** `run` with a clock that moves 300 ms at each read, so that the writes' reads fall in many seconds. */
async function withTickingClock<T>(run: () => Promise<T>): Promise<T> {
  const real = Date.now;
  let t = real();
  Date.now = () => (t += 300);
  try {
    return await run();
  } finally {
    Date.now = real;
  }
}

describe('bootstrap objects made ahead', () => {
  afterEach(() => resetFeatureGates());

  it('pkg/generated/bootstrap-objects.json is what the hooks store today (else: build, node hack/gen-bootstrap-objects.mjs, build)', async () => {
    expect(readFileSync(generatedFile, 'utf8')).to.equal(formatBootstrapObjects(await makeBootstrapObjects()));
  });

  it('a start stores each object as the full create and update paths do: key order, managedFields, an APIService\'s status', async () => {
    const full = await writeAll(false);
    const made = await writeAll(true);
    expect(made.size).to.be.greaterThan(150);
    expect([...made]).to.deep.equal([...full]);
    const apiService = JSON.parse(made.get('/registry/apiregistration.k8s.io/apiservices/v1.rbac.authorization.k8s.io')!) as KubeObject;
    expect(apiService.status).to.deep.include({ conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '', reason: 'Local', message: 'Local APIServices are always available' }] });
    expect(apiService.metadata.managedFields?.map((e) => e.subresource ?? '')).to.deep.equal(['', 'status']);
  });

  it('stamps each time from the clock, whichever second each read falls in (the same objects the full way and made ahead)', async () => {
    const [full, made] = await withTickingClock(async () => [await writeAll(false), await writeAll(true)]);
    expect([...made]).to.deep.equal([...full]);
  });

  it('an object mutating admission changes is created the full way, as admitted', async () => {
    const labelling = () => new AdmissionChain([{
      name: 'Labeller', handles: (op) => op === 'CREATE',
      admit: async (a) => { if (a.resource === 'clusterroles') a.object!.metadata.labels = { ...a.object!.metadata.labels, admitted: 'yes' }; },
    }]);
    const full = await writeAll(false, labelling());
    const made = await writeAll(true, labelling());
    expect([...made]).to.deep.equal([...full]);
    expect((JSON.parse(made.get('/registry/clusterroles/admin')!) as KubeObject).metadata.labels).to.include({ admitted: 'yes' });
  });

  it('is not used for another body, another field manager, or with feature gates set', () => {
    const body = bootstrapPolicy().clusterRoles[0]!;
    const request = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', namespace: '', fieldManager: 'kube-apiserver', body };
    expect(preparedBootstrapObject(request)?.metadata.name).to.equal(body.metadata.name);
    expect(preparedBootstrapObject({ ...request, fieldManager: 'someone-else' })).to.equal(undefined);
    expect(preparedBootstrapObject({ ...request, body: { ...body, metadata: { ...body.metadata, labels: { extra: 'x' } } } })).to.equal(undefined);
    resetFeatureGates('AllAlpha=true');
    expect(preparedBootstrapObject(request)).to.equal(undefined);
  });
});
