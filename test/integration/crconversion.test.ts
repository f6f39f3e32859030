// CRD version conversion against a real HTTPS conversion webhook (no apiserver): both
// ConversionReview versions over TLS, by URL and by Service reference (ExternalName, as
// tests cannot use loopback endpoints), one review per call with only the objects that
// need it, order kept, upstream's failure messages surfaced as 500s, and strategy None.
import { expect } from 'chai';
import { Registry } from 'prom-client';
import { converterFor, type Converter, type ConverterDeps } from '../../pkg/apiextensions/conversion/index.js';
import type { KubeObject } from '../../pkg/runtime/object.js';
import { startConversionWebhook, startWebhookServer, type ConversionWebhook, type WebhookServer } from '../harness/index.js';

const group = 'stable.example.com';
const v1 = `${group}/v1`;
const v2 = `${group}/v2`;

interface Failure { code: number; reason: string; message: string }

async function failure(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (err) {
    const e = err as Failure;
    return { code: e.code, reason: e.reason, message: e.message };
  }
  throw new Error('expected a rejection');
}

function crd(conversion: Record<string, unknown> | undefined): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true }, { name: 'v2', served: true, storage: false }],
      conversion,
    },
  };
}

const widgetV1 = (name: string, hostPort = `${name}.example:80`): KubeObject =>
  ({ apiVersion: v1, kind: 'Widget', metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '5' }, spec: { hostPort } });
const widgetV2 = (name: string): KubeObject =>
  ({ apiVersion: v2, kind: 'Widget', metadata: { name, namespace: 'ns', uid: `uid-${name}` }, spec: { host: `${name}.example`, port: 80 } });

describe('CRD conversion webhook', function () {
  this.timeout(30_000);
  let hook: ConversionWebhook;
  const services = new Map<string, KubeObject>();
  const deps: ConverterDeps = { services: { get: (ns, name) => services.get(`${ns}/${name}`) } };
  const open: Converter[] = [];
  const webhookConverter = (reviewVersions: string[], clientConfig: Record<string, unknown> = { url: hook.url, caBundle: hook.caBundle }, d = deps) => {
    const c = converterFor(crd({ strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: reviewVersions } }), d);
    open.push(c);
    return c;
  };

  before(async () => {
    hook = await startConversionWebhook({ dnsNames: ['convert.hooks.svc'] });
    const external = (name: string) => ({ metadata: { name, namespace: 'hooks' }, spec: { type: 'ExternalName', externalName: '127.0.0.1' } });
    services.set('hooks/convert', external('convert'));
    services.set('hooks/other', external('other'));
  });
  after(async () => {
    for (const c of open) c.close();
    await hook.stop();
  });
  beforeEach(() => {
    hook.fault = undefined;
    hook.delayMs = 0;
    hook.addLabels = {};
  });

  for (const version of ['v1', 'v1beta1']) {
    it(`converts over TLS with a ${version} ConversionReview, sending only the objects not yet in the desired version, in order`, async () => {
      const before = hook.reviews().length;
      const converter = webhookConverter(version === 'v1' ? ['v1', 'v1beta1'] : ['v2', 'v1beta1', 'v1']);
      const already = widgetV2('b');
      const input = [widgetV1('a'), already, widgetV1('c', 'c.example:8443')];
      const out = await converter.convert(input, v2, { listKind: 'WidgetList' });
      expect(out).to.have.length(3);
      expect(out[1]).to.equal(already);
      expect(out[0]).to.deep.equal({ ...widgetV2('a'), metadata: { ...widgetV1('a').metadata, labels: {} } });
      expect(out[2]!.spec).to.deep.equal({ host: 'c.example', port: 8443 });
      // The original's metadata comes back, whatever the webhook did to it.
      expect(out[2]!.metadata).to.deep.include({ name: 'c', uid: 'uid-c', resourceVersion: '5' });
      expect(input[0]).to.deep.equal(widgetV1('a'));

      const reviews = hook.reviews().slice(before);
      expect(reviews).to.have.length(1);
      const r = reviews[0]!;
      expect(r.query).to.deep.equal({ timeout: '30s' });
      expect(r.headers['content-type']).to.equal('application/json');
      expect(r.review.apiVersion).to.equal(`apiextensions.k8s.io/${version}`);
      expect(r.review.kind).to.equal('ConversionReview');
      expect(r.request.uid).to.match(/^[0-9a-f-]{36}$/);
      expect(r.request.desiredAPIVersion).to.equal(v2);
      expect(r.request.objects).to.deep.equal([widgetV1('a'), widgetV1('c', 'c.example:8443')]);
    });
  }

  it('sends nothing when every object is already in the desired version, and converts back', async () => {
    const converter = webhookConverter(['v1']);
    const before = hook.reviews().length;
    const input = [widgetV2('a'), widgetV2('b')];
    const out = await converter.convert(input, v2);
    expect(out[0]).to.equal(input[0]);
    expect(out[1]).to.equal(input[1]);
    expect(await converter.convert([], v2)).to.deep.equal([]);
    // An object with nothing but apiVersion and kind converts without the webhook.
    expect(await converter.convert([{ apiVersion: v1, kind: 'Widget' } as KubeObject], v2)).to.deep.equal([{ apiVersion: v2, kind: 'Widget' }]);
    expect(hook.reviews().length).to.equal(before);
    const [back] = await converter.convert([widgetV2('z')], v1);
    expect(back).to.deep.equal({ ...widgetV1('z'), metadata: { ...widgetV2('z').metadata, labels: {} } });
    expect(hook.reviews().length).to.equal(before + 1);
  });

  it('keeps the labels a webhook sets and refuses invalid ones', async () => {
    const converter = webhookConverter(['v1']);
    hook.addLabels = { converted: 'yes' };
    const [out] = await converter.convert([widgetV1('a')], v2);
    expect(out!.metadata.labels).to.deep.equal({ converted: 'yes' });
    hook.fault = 'badLabel';
    const err = await failure(converter.convert([widgetV1('a')], v2));
    expect(err).to.include({ code: 500, reason: '' });
    expect(err.message).to.match(/^conversion webhook for stable\.example\.com\/v1, Kind=Widget returned invalid metadata: metadata\.labels: Invalid value: "not a valid value!": a valid label must be/);
  });

  it('reaches a Service reference through its ExternalName, verifying the certificate for <name>.<namespace>.svc', async () => {
    const byService = webhookConverter(['v1'], { service: { namespace: 'hooks', name: 'convert', path: '/convert', port: hook.port }, caBundle: hook.caBundle });
    const [out] = await byService.convert([widgetV1('s')], v2);
    expect(out!.spec).to.deep.equal({ host: 's.example', port: 80 });
    expect(hook.reviews().at(-1)!.path).to.equal('/convert');

    const wrongName = webhookConverter(['v1'], { service: { namespace: 'hooks', name: 'other', path: '/convert', port: hook.port }, caBundle: hook.caBundle });
    expect(await failure(wrongName.convert([widgetV1('s')], v2))).to.deep.equal({
      code: 500, reason: '',
      message: `conversion webhook for stable.example.com/v1, Kind=Widget failed: Post "https://other.hooks.svc:${hook.port}/convert?timeout=30s": tls: failed to verify certificate: x509: certificate is valid for localhost, kubernetes, kubernetes.default, kubernetes.default.svc, kubernetes.default.svc.cluster.local, convert.hooks.svc, not other.hooks.svc`,
    });
    const missing = webhookConverter(['v1'], { service: { namespace: 'hooks', name: 'nope', path: '/convert', port: 8443 }, caBundle: hook.caBundle });
    expect((await failure(missing.convert([widgetV1('s')], v2))).message).to.equal(
      'conversion webhook for stable.example.com/v1, Kind=Widget failed: Post "https://nope.hooks.svc:8443/convert?timeout=30s": service "nope" not found');
  });

  it('fails on an untrusted certificate and on a backend that is down', async () => {
    const other: WebhookServer = await startWebhookServer();
    const port = other.port;
    try {
      const untrusted = webhookConverter(['v1'], { url: hook.url, caBundle: other.caBundle });
      expect((await failure(untrusted.convert([widgetV1('a')], v2))).message).to.equal(
        `conversion webhook for stable.example.com/v1, Kind=Widget failed: Post "${hook.url}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
    } finally {
      await other.stop();
    }
    const down = webhookConverter(['v1'], { url: `https://127.0.0.1:${port}/convert`, caBundle: hook.caBundle });
    expect((await failure(down.convert([widgetV1('a')], v2))).message).to.equal(
      `conversion webhook for stable.example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  });

  it('gives up after the timeout', async () => {
    const converter = webhookConverter(['v1'], undefined, { ...deps, webhookTimeoutSeconds: 1 });
    hook.delayMs = 1500;
    expect(await failure(converter.convert([widgetV1('a')], v2))).to.deep.equal({
      code: 500, reason: '', message: `conversion webhook for stable.example.com/v1, Kind=Widget failed: Post "${hook.url}?timeout=1s": context deadline exceeded`,
    });
  });

  it('refuses a misbehaving webhook with upstream\'s messages', async () => {
    const converter = webhookConverter(['v1']);
    const single = [widgetV1('a')];
    const list = [widgetV1('a'), widgetV1('b')];
    const single1 = 'conversion webhook for stable.example.com/v1, Kind=Widget';
    const listOf = 'conversion webhook for stable.example.com/v2, Kind=WidgetList';
    const cases: Array<[typeof hook.fault, KubeObject[], string]> = [
      ['http500', single, `${single1} failed: an error on the server ("conversion backend exploded") has prevented the request from succeeding`],
      ['badUID', single, `${single1} failed: expected response.uid="<uid>", got "not-the-request-uid"`],
      ['failed', single, `${single1} failed: cannot convert to stable.example.com/v2`],
      ['wrongCount', list, `${listOf} returned 1 objects, expected 2`],
      ['changedName', single, `${single1} returned invalid object: must have the same name: a != a-renamed`],
      ['changedName', list, `${listOf} returned invalid converted object at index 1: must have the same name: a != a-renamed`],
      ['wrongVersion', single, `${single1} returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)`],
      ['wrongVersion', list, `${listOf} returned invalid converted object at index 1: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)`],
    ];
    for (const [fault, objects, message] of cases) {
      hook.fault = fault;
      const err = await failure(converter.convert(objects, v2, objects.length > 1 ? { listKind: 'WidgetList' } : undefined));
      const uid = hook.reviews().at(-1)!.request.uid as string;
      expect(err, `${fault}`).to.deep.equal({ code: 500, reason: '', message: message.replace('<uid>', uid) });
    }
  });

  it('records upstream\'s conversion webhook metrics by failure type', async () => {
    const registry = new Registry();
    const converter = webhookConverter(['v1'], undefined, { ...deps, metricsRegistry: registry });
    await converter.convert([widgetV1('a')], v2);
    await converter.convert([widgetV2('a')], v2);
    for (const fault of ['http500', 'failed', 'wrongCount', 'changedName'] as const) {
      hook.fault = fault;
      await failure(converter.convert([widgetV1('a')], v2));
    }
    const text = await registry.metrics();
    for (const line of [
      'apiserver_conversion_webhook_request_total{result="success",failure_type=""} 1',
      'apiserver_conversion_webhook_request_total{result="failure",failure_type="conversion_webhook_call_failure"} 1',
      'apiserver_conversion_webhook_request_total{result="failure",failure_type="conversion_webhook_malformed_response_failure"} 1',
      'apiserver_conversion_webhook_request_total{result="failure",failure_type="conversion_webhook_partial_response_failure"} 1',
      'apiserver_conversion_webhook_request_total{result="failure",failure_type="conversion_webhook_invalid_converted_object_failure"} 1',
      'apiserver_conversion_webhook_duration_seconds_count{result="success",failure_type=""} 1',
      `apiserver_crd_conversion_webhook_duration_seconds_count{crd_name="widgets.${group}",from_version="v1",to_version="v2",succeeded="true"} 1`,
      `apiserver_crd_conversion_webhook_duration_seconds_count{crd_name="widgets.${group}",from_version="v1",to_version="v2",succeeded="false"} 4`,
    ]) expect(text).to.include(line);
  });

  it('does not check the uid of a v1beta1 answer', async () => {
    hook.fault = 'badUID';
    const [out] = await webhookConverter(['v1beta1']).convert([widgetV1('a')], v2);
    expect(out!.apiVersion).to.equal(v2);
  });
});

describe('CRD conversion strategy None and version checks', () => {
  const deps: ConverterDeps = { services: { get: () => undefined } };

  it('changes only apiVersion, leaving objects already in the version untouched', async () => {
    for (const conversion of [undefined, { strategy: 'None' }]) {
      const converter = converterFor(crd(conversion), deps);
      const already = widgetV2('b');
      const input = [widgetV1('a'), already];
      const out = await converter.convert(input, v2);
      expect(out[0]).to.deep.equal({ ...widgetV1('a'), apiVersion: v2 });
      expect(out[1]).to.equal(already);
      expect(input[0]!.apiVersion).to.equal(v1);
    }
  });

  it('refuses versions the CRD does not have, and unknown strategies', async () => {
    const converter = converterFor(crd({ strategy: 'None' }), deps);
    expect(await failure(converter.convert([widgetV1('a')], `${group}/v3`))).to.deep.equal(
      { code: 500, reason: '', message: 'request to convert CR to an invalid group/version: stable.example.com/v3' });
    expect((await failure(converter.convert([{ ...widgetV1('a'), apiVersion: 'other.example.com/v1' }], v2))).message).to.equal(
      'request to convert CR from an invalid group/version: other.example.com/v1');
    expect((await failure(converter.convert([widgetV1('a'), { ...widgetV1('b'), apiVersion: `${group}/v9` }], v2))).message).to.equal(
      'request to convert CR list failed, list index 1 has invalid group/version: stable.example.com/v9');
    expect(() => converterFor(crd({ strategy: 'Magic' }), deps)).to.throw('unknown conversion strategy "Magic" for CRD widgets.stable.example.com');
  });
});
