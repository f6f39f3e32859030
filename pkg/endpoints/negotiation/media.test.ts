import { expect } from 'chai';
import { StatusError } from '../../runtime/errors.js';
import { negotiateResponse, protobufMediaType } from './media.js';

describe('negotiateResponse', () => {
  const plain = { allowTransforms: false, pretty: false, protobuf: true };

  it('answers a repeated Accept header as the first time, each set of options apart', () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    for (let i = 0; i < 3; i++) {
      expect(negotiateResponse(accept, { ...plain, allowTransforms: true })).to.deep.include({ format: 'json', transform: 'Table', transformVersion: 'v1' });
      expect(negotiateResponse(accept, plain)).to.deep.include({ format: 'json', transform: 'none', pretty: false });
      expect(negotiateResponse(accept, { ...plain, pretty: true })).to.deep.include({ transform: 'none', pretty: true });
    }
    expect(negotiateResponse(`${protobufMediaType}, */*`, plain)).to.deep.include({ format: 'protobuf', contentType: protobufMediaType });
    expect(negotiateResponse(`${protobufMediaType}, */*`, { ...plain, protobuf: false })).to.deep.include({ format: 'json' });
    expect(negotiateResponse(undefined, plain)).to.deep.include({ format: 'json', contentType: 'application/json' });
  });

  it('refuses an unacceptable Accept header every time, and keeps answering others after many distinct headers', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => negotiateResponse('text/html', plain)).to.throw(StatusError).with.property('code', 406);
    }
    for (let i = 0; i < 600; i++) expect(negotiateResponse(`application/json;x=${i}`, plain).format).to.equal('json');
    expect(negotiateResponse('application/yaml', plain)).to.deep.include({ format: 'yaml', contentType: 'application/yaml' });
  });
});
