// For unit tests: run fn, expect it to throw a StatusError, and return that error.
import { expect } from 'chai';
import { StatusError } from '../../pkg/runtime/errors.js';

export function failure(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(StatusError);
    return e as StatusError;
  }
  throw new Error('expected a failure');
}
