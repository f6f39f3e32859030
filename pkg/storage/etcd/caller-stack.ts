// grpc-js makes an Error on every call to keep the caller's stack, which it appends ("for
// call at") to the message of a call that fails. Capturing it walks up to
// Error.stackTraceLimit frames, and rebuilds each optimized frame's inlined functions from
// deoptimization data: 2.4% of a replica's CPU under create and update load (perf,
// about 20 us of each write's one etcd call; 8 us for a bare Error 12 frames deep). etcd3
// calls after an await in its connection pool, so that stack is etcd3's and cockatiel's
// frames, not the request's, and nothing reads it (etcd errors are translated by message
// and class: boundary.ts). This interceptor runs inside grpc-js's call set-up, just before
// that Error is made, and the call's start, just after: the Error is made with no frames,
// so a failed call says "for call at" and "no stack trace available"; its code, details
// and message are unchanged.
import grpc from '@grpc/grpc-js';

export const withoutCallerStack: grpc.Interceptor = (options, nextCall) => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let call: ReturnType<typeof nextCall>;
  try {
    call = nextCall(options);
  } catch (err) {
    Error.stackTraceLimit = limit;
    throw err;
  }
  return new grpc.InterceptingCall(call, {
    start(metadata, listener, next) {
      Error.stackTraceLimit = limit;
      next(metadata, listener);
    },
  });
};
