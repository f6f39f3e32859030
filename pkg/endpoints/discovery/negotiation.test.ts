import { expect } from 'chai';
import { negotiateDiscovery } from './negotiation.js';

describe('pkg/endpoints/discovery negotiation', function () {
  it('selects aggregated discovery for the kubectl v1.28 Accept header', function () {
    expect(negotiateDiscovery('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json')).to.equal('aggregated');
  });
  it('honours q-values and skips clauses it cannot serve', function () {
    expect(negotiateDiscovery('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList;q=0.5,application/json')).to.equal('legacy');
    expect(negotiateDiscovery('application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList')).to.equal('aggregated');
    expect(negotiateDiscovery('application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json')).to.equal('legacy');
    expect(negotiateDiscovery('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList;x=1')).to.equal('legacy');
    expect(negotiateDiscovery('application/json;as=Table;g=meta.k8s.io;v=v1,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList')).to.equal('aggregated');
  });
  it('defaults to legacy', function () {
    expect(negotiateDiscovery(undefined)).to.equal('legacy');
    expect(negotiateDiscovery('')).to.equal('legacy');
    expect(negotiateDiscovery('text/html')).to.equal('legacy');
  });
});
