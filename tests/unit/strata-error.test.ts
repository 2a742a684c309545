import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatStrataError, StrataRequestError, strataError } from '../../shared/errors/strata-error';

// shared/errors/strata-error.ts: one line "what (where). Fix: how", the shape the CLI prints and the UI shows.
test('formatStrataError: message, then where in parentheses, then the fix', () => {
  assert.equal(formatStrataError(strataError('a/b', 'No loader')), 'No loader');
  assert.equal(formatStrataError(strataError('a/b', 'No loader', { where: '/usr/lib' })), 'No loader (/usr/lib)');
  assert.equal(formatStrataError(strataError('a/b', 'No loader', { fix: 'install libvulkan1' })), 'No loader. Fix: install libvulkan1');
  assert.equal(formatStrataError(strataError('a/b', 'No loader', { where: 'x', fix: 'y' })), 'No loader (x). Fix: y');
  assert.equal(formatStrataError(strataError('a/b', 'No loader', { where: '', fix: '' })), 'No loader');
});

test('strataError keeps code, message and the extras; StrataRequestError carries the value and the line', () => {
  const e = strataError('override/foreign', 'Not ours', { where: 'f', fix: 'use --force', data: { n: 1 } });
  assert.deepEqual(e, { code: 'override/foreign', message: 'Not ours', where: 'f', fix: 'use --force', data: { n: 1 } });
  const thrown = new StrataRequestError(e);
  assert.ok(thrown instanceof Error);
  assert.equal(thrown.name, 'StrataRequestError');
  assert.equal(thrown.error, e);
  assert.equal(thrown.message, 'Not ours (f). Fix: use --force');
});
