import { expect } from 'chai';
import { longestRoot } from './roots.js';

describe('longestRoot: the cached resource of a key', () => {
  const roots = new Set(['/registry/services/specs/', '/registry/services/', '/registry/configmaps/', '/p/example.com/widgets/']);

  it('is the longest root the key starts with, as a directory', () => {
    expect(longestRoot(roots, '/registry/services/specs/ns/a')).to.equal('/registry/services/specs/');
    expect(longestRoot(roots, '/registry/services/endpoints/ns/a')).to.equal('/registry/services/');
    expect(longestRoot(roots, '/registry/configmaps/ns/cm')).to.equal('/registry/configmaps/');
    expect(longestRoot(roots, '/registry/configmaps/')).to.equal('/registry/configmaps/');
    expect(longestRoot(roots, '/registry/configmaps')).to.equal('/registry/configmaps/');
    expect(longestRoot(roots, '/p/example.com/widgets/ns/w')).to.equal('/p/example.com/widgets/');
  });

  it('is none for a key under no root, or a root\'s name continued', () => {
    for (const key of ['/registry/configmapsx/ns/cm', '/registry/secrets/ns/s', '/registry', '/', '', 'configmaps', '/p/example.com/']) {
      expect(longestRoot(roots, key), key).to.equal(undefined);
    }
  });
});
