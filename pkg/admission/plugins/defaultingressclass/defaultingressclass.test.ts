import { expect } from 'chai';
import { attrs, rejection, staticLister } from '../../test-attributes.js';
import type { KubeObject } from '../../../runtime/object.js';
import { DefaultIngressClass } from './index.js';

const cls = (name: string, isDefault: boolean, created = '2024-01-01T00:00:00Z'): KubeObject => ({
  metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : { 'ingressclass.kubernetes.io/is-default-class': 'false' } },
});
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({ metadata: { name: 'web', annotations }, spec });
const create = (object: KubeObject) => attrs({ group: 'networking.k8s.io', kind: 'Ingress', resource: 'ingresses', name: 'web', object });

describe('DefaultIngressClass', () => {
  it('handles creates only', () => {
    const p = new DefaultIngressClass(staticLister([]));
    expect(p.handles('CREATE')).to.equal(true);
    expect(p.handles('UPDATE')).to.equal(false);
  });

  it('sets spec.ingressClassName to the default class when the Ingress names none', async () => {
    const obj = ingress();
    await new DefaultIngressClass(staticLister([cls('other', false), cls('nginx', true)])).admit(create(obj));
    expect(obj.spec).to.deep.equal({ ingressClassName: 'nginx' });
  });

  it('leaves an Ingress with a class name, or with the legacy annotation, alone', async () => {
    const p = new DefaultIngressClass(staticLister([cls('nginx', true)]));
    const named = ingress({ ingressClassName: 'mine' });
    await p.admit(create(named));
    expect(named.spec).to.deep.equal({ ingressClassName: 'mine' });
    const legacy = ingress({}, { 'kubernetes.io/ingress.class': 'old' });
    await p.admit(create(legacy));
    expect(legacy.spec).to.deep.equal({});
  });

  it('does nothing without a default class', async () => {
    const obj = ingress();
    await new DefaultIngressClass(staticLister([cls('a', false)])).admit(create(obj));
    expect(obj.spec).to.deep.equal({});
  });

  it('picks the newest of several defaults, the lowest name on equal timestamps', async () => {
    const obj = ingress();
    await new DefaultIngressClass(staticLister([cls('old', true, '2024-01-01T00:00:00Z'), cls('new', true, '2024-06-01T00:00:00Z')])).admit(create(obj));
    expect(obj.spec).to.deep.equal({ ingressClassName: 'new' });
    const tie = ingress();
    await new DefaultIngressClass(staticLister([cls('zeta', true), cls('alpha', true)])).admit(create(tie));
    expect(tie.spec).to.deep.equal({ ingressClassName: 'alpha' });
  });

  it('ignores other resources and subresources', async () => {
    const p = new DefaultIngressClass(staticLister([cls('nginx', true)]));
    const status = ingress();
    await p.admit({ ...create(status), subresource: 'status' });
    expect(status.spec).to.deep.equal({});
    const cm: KubeObject = { metadata: { name: 'c' } };
    await p.admit(attrs({ object: cm }));
    expect(cm).to.deep.equal({ metadata: { name: 'c' } });
  });

  it('refuses while its cache has not synced', async () => {
    const err = await rejection(new DefaultIngressClass(staticLister([], false)).admit(create(ingress())));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('ingresses.networking.k8s.io "web" is forbidden: not yet ready to handle request');
  });
});
