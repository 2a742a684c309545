import { test } from 'node:test';
import assert from 'node:assert/strict';
import { valueOf, whileRefreshing } from '../../renderer/src/requests/refresh-state';
import type { RequestState } from '../../renderer/src/requests/request-state';

test('a refresh keeps an answer on screen and turns anything else into loading', () => {
  const ready: RequestState<number> = { status: 'ready', value: 7 };
  assert.equal(whileRefreshing(ready), ready, 'the same object: subscribers see no change');
  assert.deepEqual(whileRefreshing<number>({ status: 'idle' }), { status: 'loading' });
  assert.deepEqual(whileRefreshing<number>({ status: 'loading' }), { status: 'loading' });
  assert.deepEqual(whileRefreshing<number>({ status: 'error', error: { code: 'x', message: 'y' } }), { status: 'loading' });
});

test('valueOf: the value when ready, else null', () => {
  assert.equal(valueOf<number>({ status: 'ready', value: 0 }), 0);
  assert.equal(valueOf<number>({ status: 'loading' }), null);
  assert.equal(valueOf<number>({ status: 'error', error: { code: 'x', message: 'y' } }), null);
});
