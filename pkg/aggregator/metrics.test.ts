import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { KubeObject } from '../runtime/object.js';
import { registerAggregatorMetrics } from './metrics.js';

const svc = (name: string, status?: string): KubeObject => ({
  metadata: { name }, spec: {}, ...(status ? { status: { conditions: [{ type: 'Available', status }] } } : {}),
});

describe('aggregator metrics', () => {
  it('reports each APIService\'s availability when scraped and counts transitions by name and reason', async () => {
    const registry = new Registry();
    let current = [svc('v1.apps', 'True'), svc('v1.a.io', 'False'), svc('v1.b.io')];
    const m = registerAggregatorMetrics(registry, () => current);
    m.markedUnavailable('v1.a.io', 'ServiceNotFound');
    m.markedUnavailable('v1.a.io', 'ServiceNotFound');
    m.markedUnavailable('v1.b.io', undefined);
    let text = await registry.metrics();
    expect(text).to.include('# HELP aggregator_unavailable_apiservice [ALPHA] Gauge of APIServices which are marked as unavailable broken down by APIService name.');
    expect(text).to.include('aggregator_unavailable_apiservice{name="v1.apps"} 0');
    expect(text).to.include('aggregator_unavailable_apiservice{name="v1.a.io"} 1');
    // No condition yet is not Available.
    expect(text).to.include('aggregator_unavailable_apiservice{name="v1.b.io"} 1');
    expect(text).to.include('aggregator_unavailable_apiservice_total{name="v1.a.io",reason="ServiceNotFound"} 2');
    expect(text).to.include('aggregator_unavailable_apiservice_total{name="v1.b.io",reason="UnknownReason"} 1');
    // A deleted APIService leaves the gauge.
    current = [svc('v1.apps', 'True')];
    text = await registry.metrics();
    expect(text).to.not.include('aggregator_unavailable_apiservice{name="v1.a.io"}');
    // Registering again (a second server in one process) keeps the counter and takes the gauge over.
    registerAggregatorMetrics(registry, () => [svc('v1.c.io', 'False')]);
    text = await registry.metrics();
    expect(text).to.include('aggregator_unavailable_apiservice{name="v1.c.io"} 1');
    expect(text).to.include('aggregator_unavailable_apiservice_total{name="v1.a.io",reason="ServiceNotFound"} 2');
  });
});
