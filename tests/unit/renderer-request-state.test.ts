import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toStrataError } from '../../renderer/src/requests/request-state';
import { StrataRequestError, formatStrataError, strataError } from '../../shared/errors/strata-error';

const original = strataError('bridge/timeout', 'The probe did not answer', { where: 'app.info', fix: 'check that libvulkan1 is installed' });

test('a StrataRequestError keeps its error value, fix included', () => {
  const error = toStrataError(new StrataRequestError(original), 'app.info');
  assert.deepEqual(error, original);
  assert.equal(formatStrataError(error), 'The probe did not answer (app.info). Fix: check that libvulkan1 is installed');
});

test('recognised by shape: the preload bundle has its own copy of StrataRequestError', () => {
  class OtherCopy extends Error {
    readonly error = original;
  }
  assert.deepEqual(toStrataError(new OtherCopy('x'), 'app.info'), original);
  // Something with an `error` field that is not a StrataError is not taken for one.
  assert.equal(toStrataError(Object.assign(new Error('boom'), { error: { code: 1 } }), 'app.info').code, 'ui/unexpected');
});

test('an already formatted message (Electron keeps only the message) is shown once, not wrapped again', () => {
  const error = toStrataError(new Error(formatStrataError(original)), 'app.info');
  assert.equal(formatStrataError(error), formatStrataError(original));
});

test('anything else becomes a ui/unexpected error that names the call and says what to do', () => {
  const error = toStrataError(new TypeError('x is undefined'), 'env.summary');
  assert.equal(error.code, 'ui/unexpected');
  assert.equal(error.message, 'x is undefined');
  assert.equal(error.where, 'env.summary');
  assert.ok(error.fix);
  assert.equal(toStrataError('plain string', 'app.info').message, 'plain string');
  assert.equal(toStrataError(new Error(''), 'app.info').message, 'Unknown error');
});
