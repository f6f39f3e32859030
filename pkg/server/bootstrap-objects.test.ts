import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AdmissionChain } from '../admission/interfaces.js';
import { resetFeatureGates } from '../features/gates.js';
import type { KubeObject } from '../runtime/object.js';
import { bootstrapCreations, bootstrapWriter, capturingStorage, formatBootstrapObjects, makeBootstrapObjects } from './bootstrap-objects-gen.js';
import { preparedBootstrapObject } from './bootstrap-objects.js';

const generatedFile = fileURLToPath(new URL('../../../pkg/generated/bootstrap-objects.json', import.meta.url));

/** What differs between two creates of one object: its uid and times, blanked where they are. */
function blanked(o: KubeObject): KubeObject {
  const c = structuredClone(o);
  expect(c.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
  expect(c.metadata.creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  c.metadata.uid = 'uid';
  c.metadata.creationTimestamp = 'created';
  for (const e of c.metadata.managedFields ?? []) e.time = 'time';
  return c;
}

/** Every bootstrap object through the writer, as stored and as returned, blanked; JSON keeps key order. */
async function writeAll(prepared: boolean, admission = new AdmissionChain()): Promise<{ stored: string[]; returned: string[] }> {
  const captured: KubeObject[] = [];
  const client = bootstrapWriter(capturingStorage(captured), prepared ? preparedBootstrapObject : undefined, admission);
  const returned: string[] = [];
  for (const c of bootstrapCreations()) returned.push(JSON.stringify(blanked(await client.resource(c.group, c.plural, c.version).create(c.namespace, c.body))));
  return { stored: captured.map((o) => JSON.stringify(blanked(o))), returned };
}

describe('bootstrap objects made ahead', () => {
  afterEach(() => resetFeatureGates());

  it('pkg/generated/bootstrap-objects.json is what the create path stores today (else: build, node hack/gen-bootstrap-objects.mjs, build)', async () => {
    expect(readFileSync(generatedFile, 'utf8')).to.equal(formatBootstrapObjects(await makeBootstrapObjects()));
  });

  it('a start writes each one as the full create path does, key order, managedFields and the returned object included', async () => {
    const full = await writeAll(false);
    const made = await writeAll(true);
    expect(made.stored).to.have.length(bootstrapCreations().length).and.to.be.greaterThan(150);
    expect(made.stored).to.deep.equal(full.stored);
    expect(made.returned).to.deep.equal(full.returned);
  });

  it('an object mutating admission changes is created the full way, as admitted', async () => {
    const labelling = () => new AdmissionChain([{
      name: 'Labeller', handles: (op) => op === 'CREATE',
      admit: async (a) => { if (a.resource === 'clusterroles') a.object!.metadata.labels = { ...a.object!.metadata.labels, admitted: 'yes' }; },
    }]);
    const full = await writeAll(false, labelling());
    const made = await writeAll(true, labelling());
    expect(made.stored).to.deep.equal(full.stored);
    const admin = made.stored.map((s) => JSON.parse(s) as KubeObject).find((o) => o.kind === 'ClusterRole' && o.metadata.name === 'admin')!;
    expect(admin.metadata.labels).to.include({ admitted: 'yes' });
  });

  it('is not used for another body, another field manager, or with feature gates set', () => {
    const c = bootstrapCreations().find((x) => x.plural === 'clusterroles')!;
    const request = { ...c, fieldManager: 'kube-apiserver' };
    expect(preparedBootstrapObject(request)?.metadata.name).to.equal(c.body.metadata.name);
    expect(preparedBootstrapObject({ ...request, fieldManager: 'someone-else' })).to.equal(undefined);
    expect(preparedBootstrapObject({ ...request, body: { ...c.body, metadata: { ...c.body.metadata, labels: { extra: 'x' } } } })).to.equal(undefined);
    resetFeatureGates('AllAlpha=true');
    expect(preparedBootstrapObject(request)).to.equal(undefined);
  });
});
