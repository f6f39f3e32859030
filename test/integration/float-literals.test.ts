// Integers written as JSON floats (`3.0`, `1e2`) into a built-in kind's integer fields:
// upstream's typed decoder refuses them (ParseInt of the literal fails) and names the
// literal as written. Create and update answer its 400; a JSON or merge patch keeps the
// patch's raw number in the patched document, so its decode fails too (422 on "patch");
// a strategic merge patch converts from a map, where an integral float converts.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ field: string }> } }
interface Deployment { metadata: { name: string; resourceVersion: string }; spec: { replicas: number; template: { spec: Record<string, unknown> } } }

describe('integers written as JSON floats', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `floats-${Date.now().toString(36)}`;
  const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
  const call = <T>(method: string, path: string, body?: string, contentType = 'application/json'): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers: { 'Content-Type': contentType } });
  const deployment = (name: string, replicas: string, extraPodSpec = ''): string => `{"apiVersion":"apps/v1","kind":"Deployment",`
    + `"metadata":{"name":"${name}","annotations":{"note":"v1.25, 2.0 and [1.5]: \\": 3.0\\""}},"spec":{"replicas":${replicas},`
    + '"selector":{"matchLabels":{"app":"f"}},"template":{"metadata":{"labels":{"app":"f"}},"spec":{'
    + `${extraPodSpec}"containers":[{"name":"c","image":"nginx:1.25","resources":{"limits":{"cpu":0.5,"memory":1e6}}}]}}}}`;
  const refused = (literal: string, field: string, type = 'int32'): string =>
    `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number ${literal} into Go struct field ${field} of type ${type}`;

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }))).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('create: 400 naming the field and the number as written', async () => {
    for (const [replicas, extra, field, type] of [
      ['3.0', '', 'DeploymentSpec.spec.replicas', 'int32'],
      ['1e2', '', 'DeploymentSpec.spec.replicas', 'int32'],
      ['-2.50', '', 'DeploymentSpec.spec.replicas', 'int32'],
      ['1', '"terminationGracePeriodSeconds":30.0,', 'PodSpec.spec.template.spec.terminationGracePeriodSeconds', 'int64'],
    ]) {
      const res = await call<Status>('POST', deployments, deployment('refused', replicas, extra));
      expect(res.status, res.text).to.equal(400);
      expect(res.body.reason).to.equal('BadRequest');
      expect(res.body.message).to.equal(refused(replicas === '1' ? '30.0' : replicas, field, type));
    }
    expect((await call('GET', `${deployments}/refused`)).status).to.equal(404);
    // An int-or-string's integer is decoded by its own unmarshaler, named the same way.
    const svc = await call<Status>('POST', `/api/v1/namespaces/${ns}/services`,
      '{"metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":8080.0}]}}');
    expect(svc.status).to.equal(400);
    expect(svc.body.message).to.equal('Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number 8080.0 '
      + 'into Go struct field ServicePort.spec.ports.targetPort of type int32');
  });

  it('create: an integer past 2^53 is range-checked on the literal and named as written; int64\'s max is kept positive', async () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const pod = (name: string, grace: string): string =>
      `{"metadata":{"name":"${name}"},"spec":{"terminationGracePeriodSeconds":${grace},"containers":[{"name":"c","image":"x"}]}}`;
    const over = await call<Status>('POST', pods, pod('over', '9223372036854775808'));
    expect(over.status, over.text).to.equal(400);
    expect(over.body.message).to.equal('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 9223372036854775808 '
      + 'into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64');
    const wide = await call<Status>('POST', deployments, deployment('wide', '18446744073709551616'));
    expect(wide.status, wide.text).to.equal(400);
    expect(wide.body.message).to.equal(refused('18446744073709551616', 'DeploymentSpec.spec.replicas'));
    // In range: taken. Past 2^53 a double cannot hold it exactly, but it must not turn negative when stored.
    const max = await call<{ spec: { terminationGracePeriodSeconds: number } }>('POST', pods, pod('max', '9223372036854775807'));
    expect(max.status, max.text).to.equal(201);
    const stored = await call<{ spec: { terminationGracePeriodSeconds: number } }>('GET', `${pods}/max`);
    expect(stored.body.spec.terminationGracePeriodSeconds).to.equal(max.body.spec.terminationGracePeriodSeconds).and.to.be.greaterThan(0);
  });

  it('create: floats where a float or a quantity goes, and float-looking strings, are taken', async () => {
    const res = await call<Deployment>('POST', deployments, deployment('taken', '2'));
    expect(res.status, res.text).to.equal(201);
    const container = (res.body.spec.template.spec.containers as Array<{ image: string; resources: unknown }>)[0];
    expect(container.image).to.equal('nginx:1.25');
    // A quantity is parsed from the number's text: 1e6 keeps its exponent form (1000000 would be 1M).
    expect(container.resources).to.deep.equal({ limits: { cpu: '500m', memory: '1e6' } });
  });

  it('create: a quantity written as a JSON number is parsed from its text, 0.0000001 as 100n, 1e-7 as 100e-9', async () => {
    const res = await call<{ spec: { hard: Record<string, string> } }>('POST', `/api/v1/namespaces/${ns}/resourcequotas`,
      '{"metadata":{"name":"tiny"},"spec":{"hard":{"cpu":0.0000001,"requests.cpu":1e-7}}}');
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.hard).to.deep.equal({ cpu: '100n', 'requests.cpu': '100e-9' });
  });

  it('update: the same 400', async () => {
    const current = await call<Deployment>('GET', `${deployments}/taken`);
    const body = deployment('taken', '4.0').replace('"name":"taken"', `"name":"taken","resourceVersion":"${current.body.metadata.resourceVersion}"`);
    const res = await call<Status>('PUT', `${deployments}/taken`, body);
    expect(res.status, res.text).to.equal(400);
    expect(res.body.message).to.equal(refused('4.0', 'DeploymentSpec.spec.replicas'));
  });

  it('JSON and merge patches: 422 on "patch" showing the patched document with the number as written', async () => {
    for (const [patch, type, literal] of [
      ['{"spec":{"replicas":5.0}}', 'application/merge-patch+json', '5.0'],
      ['[{"op":"replace","path":"/spec/replicas","value":6E0}]', 'application/json-patch+json', '6E0'],
    ]) {
      const res = await call<Status>('PATCH', `${deployments}/taken`, patch, type);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.reason).to.equal('Invalid');
      expect(res.body.details?.causes?.[0].field).to.equal('patch');
      expect(res.body.message).to.match(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"apps\/v1\\",.*\}": (.*)$/s);
      expect(res.body.message).to.include(`\\"replicas\\":${literal},`);
      expect(res.body.message.endsWith(`: json: cannot unmarshal number ${literal} into Go struct field DeploymentSpec.spec.replicas of type int32`),
        res.body.message).to.equal(true);
    }
    const stored = await call<Deployment>('GET', `${deployments}/taken`);
    expect(stored.body.spec.replicas).to.equal(2);
  });

  it('JSON patch: the literal is followed wherever the patch puts it (an append, a shifted index, a move, a copy)', async () => {
    const ports = '/spec/template/spec/containers/0/ports';
    const portField = 'ContainerPort.spec.template.spec.containers.ports.containerPort';
    for (const [ops, literal, field] of [
      [`{"op":"add","path":"${ports}","value":[]},{"op":"add","path":"${ports}/-","value":{"containerPort":80.0}}`, '80.0', portField],
      [`{"op":"add","path":"${ports}","value":[{"containerPort":81}]},{"op":"add","path":"${ports}/0","value":{"containerPort":82.0}},`
        + `{"op":"add","path":"${ports}/0","value":{"containerPort":83}}`, '82.0', portField],
      ['{"op":"add","path":"/spec/paused","value":5.0},{"op":"move","from":"/spec/paused","path":"/spec/replicas"}', '5.0', 'DeploymentSpec.spec.replicas'],
      ['{"op":"add","path":"/spec/paused","value":6.0},{"op":"copy","from":"/spec/paused","path":"/spec/replicas"},{"op":"remove","path":"/spec/paused"}',
        '6.0', 'DeploymentSpec.spec.replicas'],
    ]) {
      const res = await call<Status>('PATCH', `${deployments}/taken`, `[${ops}]`, 'application/json-patch+json');
      expect(res.status, res.text).to.equal(422);
      expect(res.body.details?.causes?.[0].field).to.equal('patch');
      expect(res.body.message.endsWith(`: json: cannot unmarshal number ${literal} into Go struct field ${field} of type int32`), res.body.message).to.equal(true);
    }
    expect((await call<Deployment>('GET', `${deployments}/taken`)).body.spec.replicas).to.equal(2);
  });

  it('JSON patch: a test compares a number as written (upstream compares the raw JSON), so 2.0 is not the stored 2 but is an earlier 3.0', async () => {
    const testOnly = await call<Status>('PATCH', `${deployments}/taken`, '[{"op":"test","path":"/spec/replicas","value":2.0}]', 'application/json-patch+json');
    expect(testOnly.status, testOnly.text).to.equal(422);
    expect(testOnly.body.reason).to.equal('Invalid');
    expect(testOnly.body.details?.causes?.[0]?.field).to.not.equal('patch');
    const asStored = await call<Status>('PATCH', `${deployments}/taken`, '[{"op":"test","path":"/spec/replicas","value":2}]', 'application/json-patch+json');
    expect(asStored.status, asStored.text).to.equal(200);
    // The test passes on the literal the replace put; the decode of the result then refuses it.
    const putThenTested = await call<Status>('PATCH', `${deployments}/taken`,
      '[{"op":"replace","path":"/spec/replicas","value":3.0},{"op":"test","path":"/spec/replicas","value":3.0}]', 'application/json-patch+json');
    expect(putThenTested.status, putThenTested.text).to.equal(422);
    expect(putThenTested.body.details?.causes?.[0].field).to.equal('patch');
    expect(putThenTested.body.message.endsWith(': json: cannot unmarshal number 3.0 into Go struct field DeploymentSpec.spec.replicas of type int32'),
      putThenTested.body.message).to.equal(true);
    expect((await call<Deployment>('GET', `${deployments}/taken`)).body.spec.replicas).to.equal(2);
  });

  it('JSON patch: a test of a float64 field (a CRD schema\'s minimum) passes on the text Go writes for it, as upstream\'s', async () => {
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gauges.floats.example.com' },
      spec: {
        group: 'floats.example.com', scope: 'Namespaced', names: { plural: 'gauges', singular: 'gauge', kind: 'Gauge' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { level: { type: 'number', minimum: 1.5 } } } } }],
      },
    };
    const created = await call<Status>('POST', crds, JSON.stringify(crd));
    expect(created.status, created.text).to.equal(201);
    const minimum = '/spec/versions/0/schema/openAPIV3Schema/properties/level/minimum';
    const patch = (value: string): string => `[{"op":"test","path":"${minimum}","value":${value}},`
      + '{"op":"add","path":"/metadata/annotations","value":{"tested":"yes"}}]';
    const same = await call<Status>('PATCH', `${crds}/${crd.metadata.name}`, patch('1.5'), 'application/json-patch+json');
    expect(same.status, same.text).to.equal(200);
    const otherText = await call<Status>('PATCH', `${crds}/${crd.metadata.name}`, patch('1.50'), 'application/json-patch+json');
    expect(otherText.status, otherText.text).to.equal(422);
    expect((await call('DELETE', `${crds}/${crd.metadata.name}`)).status).to.equal(200);
  });

  it('strategic merge patch: an integral float converts (a map, not JSON, is decoded)', async () => {
    const res = await call<Deployment>('PATCH', `${deployments}/taken`, '{"spec":{"replicas":7.0}}', 'application/strategic-merge-patch+json');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.replicas).to.equal(7);
  });

  it('strategic merge patch: a number past int64 into an int64 field is int64\'s min (the patch decodes it as a float64, converted on amd64)', async () => {
    const jobs = `/apis/batch/v1/namespaces/${ns}/jobs`;
    const job = '{"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}';
    expect((await call('POST', jobs, job)).status).to.equal(201);
    const smp = (value: string) => call<Status>('PATCH', `${jobs}/j`, `{"spec":{"activeDeadlineSeconds":${value}}}`, 'application/strategic-merge-patch+json');
    for (const value of ['9223372036854775808', '1e19', '-9223372036854775809', '9223372036854775808.0']) {
      const res = await smp(value);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal('Job.batch "j" is invalid: spec.activeDeadlineSeconds: Invalid value: -9223372036854775808: must be greater than or equal to 0');
    }
    // An int64 literal is kept: int64's max stays positive.
    const max = await smp('9223372036854775807');
    expect(max.status, max.text).to.equal(200);
    // The merge patcher decodes the patched JSON into the Job: the literal is refused there.
    const merge = await call<Status>('PATCH', `${jobs}/j`, '{"spec":{"activeDeadlineSeconds":9223372036854775808}}', 'application/merge-patch+json');
    expect(merge.status, merge.text).to.equal(422);
    expect(merge.body.message.endsWith(': json: cannot unmarshal number 9223372036854775808 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64'),
      merge.body.message).to.equal(true);
  });

  it('server-side apply: numbers are float64s (sigs.k8s.io/yaml), so int64\'s max is past int64 and an int32 keeps its low bits', async () => {
    const jobs = `/apis/batch/v1/namespaces/${ns}/jobs`;
    const apply = (path: string, body: string) =>
      call<Status & { spec: { replicas: number } }>('PATCH', `${path}?fieldManager=m&force=true`, body, 'application/apply-patch+yaml');
    const job = (v: string) => `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"applied"},"spec":{"activeDeadlineSeconds":${v},`
      + '"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}';
    for (const v of ['9223372036854775807', '9223372036854775808', '1e19']) {
      const res = await apply(`${jobs}/applied`, job(v));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal('Job.batch "applied" is invalid: spec.activeDeadlineSeconds: Invalid value: -9223372036854775808: must be greater than or equal to 0');
    }
    expect((await apply(`${jobs}/applied`, job('60'))).status).to.equal(201);
    const wrapped = await apply(`${deployments}/applied`, deployment('applied', '4294967297'));
    expect(wrapped.status, wrapped.text).to.equal(201);
    expect(wrapped.body.spec.replicas).to.equal(1);
  });

  it('the scale subresource: the same refusals for its Scale (PUT 400, JSON and merge patch 422, strategic 422 on a fraction)', async () => {
    const scale = `${deployments}/taken/scale`;
    const put = await call<Status>('PUT', scale, '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"taken"},"spec":{"replicas":3.0}}');
    expect(put.status, put.text).to.equal(400);
    expect(put.body.message).to.equal('Scale in version "v1" cannot be handled as a Scale: '
      + 'json: cannot unmarshal number 3.0 into Go struct field ScaleSpec.spec.replicas of type int32');
    for (const [patch, type, literal] of [
      ['{"spec":{"replicas":2.5}}', 'application/merge-patch+json', '2.5'],
      ['[{"op":"replace","path":"/spec/replicas","value":3.0}]', 'application/json-patch+json', '3.0'],
    ]) {
      const res = await call<Status>('PATCH', scale, patch, type);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.details?.causes?.[0].field).to.equal('patch');
      expect(res.body.message).to.match(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"autoscaling\/v1\\",\\"kind\\":\\"Scale\\",.*\}": (.*)$/s);
      expect(res.body.message).to.include(`\\"spec\\":{\\"replicas\\":${literal}},`);
      expect(res.body.message.endsWith(`: json: cannot unmarshal number ${literal} into Go struct field ScaleSpec.spec.replicas of type int32`),
        res.body.message).to.equal(true);
    }
    const strategic = await call<Status>('PATCH', scale, '{"spec":{"replicas":2.5}}', 'application/strategic-merge-patch+json');
    expect(strategic.status, strategic.text).to.equal(422);
    expect(strategic.body.message).to.equal(' "" is invalid: patch: Invalid value: "map[spec:map[replicas:2.5]]": cannot convert float64 to int32');
    expect((await call<Deployment>('GET', `${deployments}/taken`)).body.spec.replicas).to.equal(7);
    const integral = await call<{ spec: { replicas: number } }>('PATCH', scale, '{"spec":{"replicas":8.0}}', 'application/strategic-merge-patch+json');
    expect(integral.status, integral.text).to.equal(200);
    expect(integral.body.spec.replicas).to.equal(8);
  });
});
