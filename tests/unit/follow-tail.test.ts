/**
 * renderer/src/sessions/follow-tail.ts: Follow in a session's log after a scroll event. Off only when
 * the user moves up away from the bottom; rows arriving, or a filter shortening the list, leave it on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followAfterScroll } from '../../renderer/src/sessions/follow-tail';

test('rows arrived after the follow scrolled: above the bottom, nobody moved up, Follow stays on', () => {
  assert.equal(followAfterScroll({ follow: true, paused: false, atBottom: false, movedUp: false }), true);
});

test('the user scrolls up away from the bottom: Follow goes off, and stays off while the user reads', () => {
  assert.equal(followAfterScroll({ follow: true, paused: false, atBottom: false, movedUp: true }), false);
  assert.equal(followAfterScroll({ follow: false, paused: false, atBottom: false, movedUp: false }), false);
  assert.equal(followAfterScroll({ follow: false, paused: false, atBottom: false, movedUp: true }), false);
});

test('a filter that shortens the list pulls the view up to the new bottom: Follow stays on', () => {
  assert.equal(followAfterScroll({ follow: true, paused: false, atBottom: true, movedUp: true }), true);
});

test('back at the bottom: Follow comes back on, unless the view is paused', () => {
  assert.equal(followAfterScroll({ follow: false, paused: false, atBottom: true, movedUp: false }), true);
  assert.equal(followAfterScroll({ follow: false, paused: true, atBottom: true, movedUp: false }), false);
  assert.equal(followAfterScroll({ follow: true, paused: true, atBottom: true, movedUp: false }), true);
});
