import { expect } from 'chai';
import { filterToGroupVersion, mergeSpecs, type JSONObject } from './swagger-merge.js';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const op = (def: string): JSONObject => ({ get: { responses: { 200: { description: 'OK', schema: ref(def) } } } });

describe('swagger merge', () => {
  const ours: JSONObject = {
    swagger: '2.0', info: { title: 'Kubernetes', version: 'unversioned' },
    paths: { '/api/v1/pods': op('io.k8s.api.core.v1.PodList') },
    definitions: {
      'io.k8s.api.core.v1.PodList': { type: 'object', properties: { meta: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta') } },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': { type: 'object', description: 'ours' },
      Shared: { type: 'string' },
    },
  };

  it('cuts an extension document to its group version and the definitions those paths reach', () => {
    const ext: JSONObject = {
      swagger: '2.0', info: { title: 'wardle', version: 'v0' },
      paths: {
        '/apis/wardle.example.com/v1alpha1/flunders': op('Flunder'),
        '/apis/wardle.example.com/v1beta1/fischers': op('Fischer'),
        '/version/': op('Info'),
      },
      definitions: { Flunder: { properties: { spec: ref('FlunderSpec') } }, FlunderSpec: { type: 'object' }, Fischer: {}, Info: {} },
    };
    const cut = filterToGroupVersion(ext, 'wardle.example.com', 'v1alpha1');
    expect(Object.keys(cut.paths as JSONObject)).to.deep.equal(['/apis/wardle.example.com/v1alpha1/flunders']);
    expect(Object.keys(cut.definitions as JSONObject).sort()).to.deep.equal(['Flunder', 'FlunderSpec']);
    expect(Object.keys(ext.paths as JSONObject)).to.have.length(3);
  });

  it('keeps our paths and definitions, shares equal ones and renames conflicting ones with their references', () => {
    const ext: JSONObject = {
      swagger: '2.0', info: { title: 'wardle', version: 'v0' },
      paths: {
        '/api/v1/pods': op('Theirs'),
        '/apis/wardle.example.com/v1alpha1/flunders': op('FlunderList'),
      },
      definitions: {
        Theirs: {},
        FlunderList: { properties: { meta: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta'), s: ref('Shared'), o: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v2') } },
        'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': { type: 'object', description: 'theirs' },
        'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v2': { type: 'object', description: 'taken in source' },
        Shared: { type: 'string' },
      },
    };
    const merged = mergeSpecs(ours, ext);
    expect(merged.info).to.deep.equal({ title: 'Kubernetes', version: 'unversioned' });
    const paths = merged.paths as JSONObject;
    expect(paths['/api/v1/pods']).to.deep.equal(op('io.k8s.api.core.v1.PodList'));
    expect(paths['/apis/wardle.example.com/v1alpha1/flunders']).to.deep.equal(op('FlunderList'));
    const defs = merged.definitions as Record<string, JSONObject>;
    // Path conflicts drop the incoming path and what only it referred to.
    expect(defs).to.not.have.property('Theirs');
    expect(defs['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta']).to.deep.equal({ type: 'object', description: 'ours' });
    // _v2 is a name the source itself uses, so the renamed one becomes _v3.
    expect(defs['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v2']).to.deep.equal({ type: 'object', description: 'taken in source' });
    expect(defs['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v3']).to.deep.equal({ type: 'object', description: 'theirs' });
    expect(defs.FlunderList).to.deep.equal({
      properties: { meta: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v3'), s: ref('Shared'), o: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v2') },
    });
    expect(defs.Shared).to.deep.equal({ type: 'string' });
    expect((ours.definitions as JSONObject)).to.not.have.property('FlunderList');
  });
});
