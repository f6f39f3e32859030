import { expect } from 'chai';
import grpc from '@grpc/grpc-js';
import { withoutCallerStack } from './caller-stack.js';

/** A unary call to a port nothing listens on: it fails UNAVAILABLE. */
function failedCall(client: grpc.Client, limitDuringCall: number[]): Promise<grpc.ServiceError> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest('/test.Service/Call', (x: Buffer) => x, (b: Buffer) => b, Buffer.alloc(0), new grpc.Metadata(),
      { deadline: Date.now() + 5000 }, (err, value) => (err ? resolve(err) : reject(new Error(`answered ${String(value)}`))));
    limitDuringCall.push(Error.stackTraceLimit);
  });
}

describe('withoutCallerStack', () => {
  it('keeps a failed call\'s code and message, drops only the caller stack, and restores the limit at once', async () => {
    const plain = new grpc.Client('127.0.0.1:1', grpc.credentials.createInsecure());
    const intercepted = new grpc.Client('127.0.0.1:1', grpc.credentials.createInsecure(), { interceptors: [withoutCallerStack] });
    const limit = Error.stackTraceLimit;
    const seen: number[] = [];
    try {
      const before = await failedCall(plain, seen);
      const after = await failedCall(intercepted, seen);
      expect(seen).to.deep.equal([limit, limit]);
      expect(Error.stackTraceLimit).to.equal(limit);
      expect(after.code).to.equal(before.code).and.to.equal(grpc.status.UNAVAILABLE);
      // The details name the connection's last error, which moves on between the calls.
      expect(after.message).to.equal(`14 UNAVAILABLE: ${after.details}`);
      expect(before.message).to.equal(`14 UNAVAILABLE: ${before.details}`);
      expect(before.stack).to.match(/for call at\n\s+at /);
      expect(after.stack).to.match(/for call at\nno stack trace available$/);
    } finally {
      plain.close();
      intercepted.close();
    }
  });

  it('restores the limit when the call cannot be set up', () => {
    const limit = Error.stackTraceLimit;
    const failing = () => { throw new Error('no channel'); };
    expect(() => withoutCallerStack({} as grpc.InterceptorOptions, failing)).to.throw('no channel');
    expect(Error.stackTraceLimit).to.equal(limit);
  });
});
