import { expect } from 'chai';
import { FeatureGates } from './gates.js';
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
