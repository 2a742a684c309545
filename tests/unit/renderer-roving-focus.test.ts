import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rovingAction } from '../../renderer/src/navigation/roving-focus';

test('arrows move by one and wrap at both ends', () => {
  assert.deepEqual(rovingAction('ArrowDown', 0, 8), { kind: 'move', index: 1 });
  assert.deepEqual(rovingAction('ArrowDown', 7, 8), { kind: 'move', index: 0 });
  assert.deepEqual(rovingAction('ArrowUp', 3, 8), { kind: 'move', index: 2 });
  assert.deepEqual(rovingAction('ArrowUp', 0, 8), { kind: 'move', index: 7 });
});

test('Home and End jump to the edges', () => {
  assert.deepEqual(rovingAction('Home', 5, 8), { kind: 'move', index: 0 });
  assert.deepEqual(rovingAction('End', 2, 8), { kind: 'move', index: 7 });
});

test('Enter and Space activate; other keys are left to the browser', () => {
  assert.deepEqual(rovingAction('Enter', 2, 8), { kind: 'activate' });
  assert.deepEqual(rovingAction(' ', 2, 8), { kind: 'activate' });
  assert.equal(rovingAction('Tab', 2, 8), null);
  assert.equal(rovingAction('ArrowRight', 2, 8), null);
  assert.equal(rovingAction('a', 2, 8), null);
});

test('an out-of-range index is clamped first; an empty list does nothing', () => {
  assert.deepEqual(rovingAction('ArrowDown', 99, 3), { kind: 'move', index: 0 });
  assert.deepEqual(rovingAction('ArrowUp', -4, 3), { kind: 'move', index: 2 });
  assert.deepEqual(rovingAction('ArrowDown', 0, 1), { kind: 'move', index: 0 });
  assert.equal(rovingAction('ArrowDown', 0, 0), null);
  assert.equal(rovingAction('Enter', 0, 0), null);
});
