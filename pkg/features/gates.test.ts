import { expect } from 'chai';
import { FeatureGates } from './gates.js';
import { knownFeatures } from './known.js';
import { parseOptions } from '../server/options.js';

describe('feature gates (--feature-gates)', () => {
  it('starts from upstream v1.28 defaults and takes Name=bool pairs in Go bool syntax', () => {
    const g = new FeatureGates();
    expect(g.enabled('APIListChunking')).to.equal(true);
    expect(g.enabled('ValidatingAdmissionPolicy')).to.equal(false);
    g.set('ValidatingAdmissionPolicy=true, APIListChunking=F');
    expect(g.enabled('ValidatingAdmissionPolicy')).to.equal(true);
    expect(g.enabled('APIListChunking')).to.equal(false);
  });

  it('refuses unknown gates, non-bool values and locked GA gates with upstream words', () => {
    expect(() => new FeatureGates().set('NoSuchGate=true')).to.throw('unrecognized feature gate: NoSuchGate');
    expect(() => new FeatureGates().set('WatchList=yes')).to.throw('invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax');
    expect(() => new FeatureGates().set('ServerSideApply=false')).to.throw('cannot set feature gate ServerSideApply to false, feature is locked to true');
    const g = new FeatureGates();
    g.set('ServerSideApply=true');
    expect(g.settingsToWarnAbout()).to.deep.equal(['Setting GA feature gate ServerSideApply=true. It will be removed in a future release.']);
  });

  it('is a flag error at start-up, naming the flag and its value', () => {
    expect(() => parseOptions(['--feature-gates=ServerSideApply=false'])).to.throw(
      'invalid argument "ServerSideApply=false" for "--feature-gates" flag: cannot set feature gate ServerSideApply to false, feature is locked to true');
    expect(parseOptions(['--feature-gates=WatchList=true']).featureGates).to.equal('WatchList=true');
  });
});

describe('feature gates: the v1.28 list', () => {
  const names = Object.keys(knownFeatures);

  it('has every gate kube-apiserver v1.28 registers (150, plus AllAlpha and AllBeta)', () => {
    expect(names).to.have.length(152);
    const count = (stage: string) => names.filter((n) => knownFeatures[n]!.stage === stage).length;
    expect({ alpha: count('ALPHA'), beta: count('BETA'), ga: count('GA'), deprecated: count('DEPRECATED') })
      .to.deep.equal({ alpha: 60, beta: 57, ga: 30, deprecated: 5 });
  });

  it('has v1.28 stages, defaults and locks', () => {
    expect(knownFeatures['SidecarContainers']).to.deep.equal({ default: false, stage: 'ALPHA' });
    expect(knownFeatures['WindowsHostNetwork']).to.deep.equal({ default: true, stage: 'ALPHA' });
    expect(knownFeatures['KMSv2KDF']).to.deep.equal({ default: false, stage: 'BETA' });
    expect(knownFeatures['SchedulerQueueingHints']).to.deep.equal({ default: false, stage: 'BETA' });
    expect(knownFeatures['PodIndexLabel']).to.deep.equal({ default: true, stage: 'BETA' });
    expect(knownFeatures['KMSv1']).to.deep.equal({ default: true, stage: 'DEPRECATED' });
    expect(knownFeatures['ExperimentalHostUserNamespaceDefaulting']).to.deep.equal({ default: false, stage: 'DEPRECATED', locked: true });
    expect(knownFeatures['ConsistentHTTPGetHandlers']).to.deep.equal({ default: true, stage: 'GA' });
    for (const n of ['APISelfSubjectReview', 'RemoveSelfLink', 'WatchBookmark', 'OpenAPIV3', 'LegacyServiceAccountTokenTracking', 'IPTablesOwnershipCleanup']) {
      expect(knownFeatures[n], n).to.deep.equal({ default: true, stage: 'GA', locked: true });
    }
    // Go constant names differ from the gate names for two of them; the flag takes the gate name.
    expect(knownFeatures['CustomCPUCFSQuotaPeriod']).to.deep.equal({ default: false, stage: 'ALPHA' });
    expect(knownFeatures['CPUCFSQuotaPeriod']).to.equal(undefined);
    // Gone by v1.28.
    for (const n of ['AdvancedAuditing', 'DryRun', 'CSIStorageCapacity', 'DelegateFSGroupToCSIDriver']) expect(knownFeatures[n], n).to.equal(undefined);
    expect(() => new FeatureGates().set('RemoveSelfLink=false')).to.throw('cannot set feature gate RemoveSelfLink to false, feature is locked to true');
  });

  it('AllAlpha and AllBeta set the gates of their stage not named explicitly', () => {
    const g = new FeatureGates();
    g.set('AllAlpha=true,WatchList=false');
    expect(g.enabled('ConsistentListFromCache')).to.equal(true);
    expect(g.enabled('WatchList')).to.equal(false);
    expect(g.enabled('ValidatingAdmissionPolicy')).to.equal(false);
    const b = new FeatureGates();
    b.set('AllBeta=false');
    expect(b.enabled('APIListChunking')).to.equal(false);
    expect(b.enabled('ServerSideApply')).to.equal(true);
    expect(b.enabled('WindowsHostNetwork')).to.equal(true);
  });
});
