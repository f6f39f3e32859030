import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attrs, rejection } from '../../test-attributes.js';
import type { KubeObject } from '../../../runtime/object.js';
import { goDuration, parseImagePolicyConfig } from './config.js';
import { httpsReviewBackend } from './backend.js';
import { BackendError, ImagePolicyWebhook, type ImageReviewStatus } from './index.js';

const cfg = { allowTTLMs: 60_000, denyTTLMs: 60_000, retryBackoffMs: 1, defaultAllow: false };

function backend(answers: Array<ImageReviewStatus | Error>) {
  const reviews: Array<Record<string, unknown>> = [];
  const fn = async (r: Record<string, unknown>): Promise<ImageReviewStatus> => {
    reviews.push(r);
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (next instanceof Error) throw next;
    return next;
  };
  return Object.assign(fn, { reviews });
}

const pod = (annotations?: Record<string, string>): KubeObject => ({
  metadata: { name: 'p', annotations },
  spec: { containers: [{ name: 'a', image: 'nginx:1' }], initContainers: [{ name: 'i', image: 'busybox' }], ephemeralContainers: [{ name: 'e', image: 'debug' }] },
});
const podAttrs = (object: KubeObject, over = {}) => attrs({ kind: 'Pod', resource: 'pods', name: 'p', object, auditAnnotations: {}, ...over });
const noSleep = async (): Promise<void> => {};

describe('ImagePolicyWebhook', () => {
  it('sends an ImageReview with the images, the image-policy annotations and the namespace', async () => {
    const b = backend([{ allowed: true }]);
    await new ImagePolicyWebhook(cfg, b, noSleep).validate(podAttrs(pod({ 'a.image-policy.k8s.io/ticket': '1', 'other.example.com/x': 'y' })));
    expect(b.reviews).to.deep.equal([{
      kind: 'ImageReview', apiVersion: 'imagepolicy.k8s.io/v1alpha1', metadata: { creationTimestamp: null },
      spec: { containers: [{ image: 'nginx:1' }, { image: 'busybox' }], annotations: { 'a.image-policy.k8s.io/ticket': '1' }, namespace: 'team' },
      status: { allowed: false },
    }]);
  });

  it('reviews only the ephemeral containers through /ephemeralcontainers, and ignores other subresources and resources', async () => {
    const b = backend([{ allowed: true }]);
    const p = new ImagePolicyWebhook(cfg, b, noSleep);
    await p.validate(podAttrs(pod(), { operation: 'UPDATE', subresource: 'ephemeralcontainers' }));
    await p.validate(podAttrs(pod(), { operation: 'UPDATE', subresource: 'status' }));
    await p.validate(attrs({ object: { metadata: { name: 'c' } } }));
    expect(b.reviews.map((r) => (r.spec as { containers: unknown }).containers)).to.deep.equal([[{ image: 'debug' }]]);
  });

  it('a denial is 403 with the backend\'s reason, or upstream\'s generic text', async () => {
    const err = await rejection(new ImagePolicyWebhook(cfg, backend([{ allowed: false, reason: 'not signed' }]), noSleep).validate(podAttrs(pod())));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: image policy webhook backend denied one or more images: not signed');
    const bare = await rejection(new ImagePolicyWebhook(cfg, backend([{ allowed: false }]), noSleep).validate(podAttrs(pod())));
    expect(bare.message).to.equal('pods "p" is forbidden: one or more images rejected by webhook backend');
  });

  it('records the backend\'s audit annotations under the plugin\'s prefix', async () => {
    const a = podAttrs(pod());
    await new ImagePolicyWebhook(cfg, backend([{ allowed: true, auditAnnotations: { 'audit-required': 'true' } }]), noSleep).validate(a);
    expect(a.auditAnnotations).to.deep.equal({ 'imagepolicywebhook.image-policy.k8s.io/audit-required': 'true' });
  });

  it('caches answers by review for allowTTL / denyTTL; a TTL of 0 does not cache', async () => {
    const b = backend([{ allowed: true }]);
    const p = new ImagePolicyWebhook(cfg, b, noSleep);
    await p.validate(podAttrs(pod()));
    await p.validate(podAttrs(pod()));
    expect(b.reviews).to.have.length(1);
    await p.validate(podAttrs(pod(), { namespace: 'other' }));
    expect(b.reviews).to.have.length(2);
    const d = backend([{ allowed: false }]);
    const q = new ImagePolicyWebhook({ ...cfg, denyTTLMs: 0 }, d, noSleep);
    await rejection(q.validate(podAttrs(pod())));
    await rejection(q.validate(podAttrs(pod())));
    expect(d.reviews).to.have.length(2);
  });

  it('retries transient failures up to 5 times with growing backoff', async () => {
    const waits: number[] = [];
    const b = backend([new BackendError('reset', true), new BackendError('reset', true), { allowed: true }]);
    await new ImagePolicyWebhook({ ...cfg, retryBackoffMs: 100 }, b, async (ms) => { waits.push(ms); }).validate(podAttrs(pod()));
    expect(b.reviews).to.have.length(3);
    expect(waits[0]).to.be.within(100, 120);
    expect(waits[1]).to.be.within(150, 180);
    const always = backend([new BackendError('reset', true)]);
    await rejection(new ImagePolicyWebhook(cfg, always, noSleep).validate(podAttrs(pod())));
    expect(always.reviews).to.have.length(5);
    const once = backend([new BackendError('refused', false)]);
    await rejection(new ImagePolicyWebhook(cfg, once, noSleep).validate(podAttrs(pod())));
    expect(once.reviews).to.have.length(1);
  });

  it('backend failure: 403 with the error, or with defaultAllow admitted and marked failed-open', async () => {
    const err = await rejection(new ImagePolicyWebhook(cfg, backend([new BackendError('Post "https://x": boom', false)]), noSleep).validate(podAttrs(pod())));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: Post "https://x": boom');
    const obj = pod();
    const a = podAttrs(obj);
    await new ImagePolicyWebhook({ ...cfg, defaultAllow: true }, backend([new BackendError('boom', false)]), noSleep).validate(a);
    expect(a.auditAnnotations).to.deep.equal({ 'imagepolicywebhook.image-policy.k8s.io/failed-open': 'true' });
    expect(obj.metadata.annotations).to.deep.equal({ 'alpha.image-policy.k8s.io/failed-open': 'true' });
  });
});

describe('ImagePolicyWebhook configuration', () => {
  it('applies units and defaults, -1 disables, resolves kubeConfigFile against the config\'s directory', () => {
    expect(parseImagePolicyConfig({ baseDir: '/etc/k', configuration: { imagePolicy: { kubeConfigFile: 'backend.kubeconfig', allowTTL: 50, denyTTL: -1, retryBackoff: 0, defaultAllow: true } } }))
      .to.deep.equal({ kubeConfigFile: '/etc/k/backend.kubeconfig', allowTTLMs: 50_000, denyTTLMs: 0, retryBackoffMs: 500, defaultAllow: true });
    expect(parseImagePolicyConfig({ baseDir: '/etc/k', configuration: { imagePolicy: { kubeConfigFile: '/abs/k' } } }))
      .to.deep.equal({ kubeConfigFile: '/abs/k', allowTTLMs: 300_000, denyTTLMs: 30_000, retryBackoffMs: 500, defaultAllow: false });
  });

  it('refuses values out of range with upstream\'s message, and a missing configuration', () => {
    expect(() => parseImagePolicyConfig({ baseDir: '/', configuration: { imagePolicy: { allowTTL: 3600 } } }))
      .to.throw('valid value is between 1s and 30m0s, got 1h0m0s');
    expect(() => parseImagePolicyConfig({ baseDir: '/', configuration: { imagePolicy: { retryBackoff: 300001 } } }))
      .to.throw('valid value is between 1ns and 5m0s, got 5m0.001s');
    expect(() => parseImagePolicyConfig(undefined)).to.throw('no config specified');
    expect(goDuration(90_500)).to.equal('1m30.5s');
  });

  it('refuses a backend that does not use https', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipw-'));
    try {
      const file = join(dir, 'k');
      writeFileSync(file, 'clusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:1"}\ncontexts:\n- name: c\n  context: {cluster: c}\ncurrent-context: c\n');
      expect(() => httpsReviewBackend(file)).to.throw(/must use https/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ImagePolicyWebhook from the admission configuration', () => {
  it('a missing or bad configuration is a start-up error naming the plugin', async () => {
    const { imagePolicyWebhookFromConfig } = await import('./factory.js');
    expect(() => imagePolicyWebhookFromConfig(undefined)).to.throw('couldn\'t init admission plugin "ImagePolicyWebhook": no config specified');
    expect(() => imagePolicyWebhookFromConfig({ baseDir: '/', configuration: { imagePolicy: { denyTTL: 0.5 } } }))
      .to.throw('couldn\'t init admission plugin "ImagePolicyWebhook": json: cannot unmarshal number 0.5 into Go struct field AdmissionConfig.imagePolicy.denyTTL of type time.Duration');
  });
});
