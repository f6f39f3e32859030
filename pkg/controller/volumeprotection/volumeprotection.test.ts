import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { claimsOfPod, podUsesClaim } from './index.js';

const pod = (spec: Record<string, unknown>, phase = 'Running'): KubeObject => ({ metadata: { name: 'web', namespace: 'n' }, spec, status: { phase } });
const volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'claim-a' } }, { name: 'scratch', ephemeral: { volumeClaimTemplate: {} } }, { name: 'tmp', emptyDir: {} }];

describe('volume protection: which pods hold a claim', () => {
  it('names persistentVolumeClaim volumes and generic ephemeral volumes as <pod>-<volume>', () => {
    expect(claimsOfPod(pod({ volumes }))).to.deep.equal(['claim-a', 'web-scratch']);
  });

  it('a scheduled, unfinished pod uses its claims; unscheduled or finished pods do not', () => {
    expect(podUsesClaim(pod({ nodeName: 'n1', volumes }), 'claim-a')).to.equal(true);
    expect(podUsesClaim(pod({ nodeName: 'n1', volumes }), 'web-scratch')).to.equal(true);
    expect(podUsesClaim(pod({ nodeName: 'n1', volumes }), 'other')).to.equal(false);
    expect(podUsesClaim(pod({ volumes }), 'claim-a')).to.equal(false);
    expect(podUsesClaim(pod({ nodeName: 'n1', volumes }, 'Succeeded'), 'claim-a')).to.equal(false);
    expect(podUsesClaim(pod({ nodeName: 'n1', volumes }, 'Failed'), 'claim-a')).to.equal(false);
  });
});
