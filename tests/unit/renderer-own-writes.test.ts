import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOwnChange, noteOwnWrites, OWN_WRITE_WINDOW_MS } from '../../renderer/src/activity/own-writes';

test('a change made only of files Strata just wrote is its own; anything more, or later, is news', () => {
  const dir = '/home/u/.local/share/vulkan/implicit_layer.d';
  let s = noteOwnWrites({ at: new Map() }, [`${dir}/VkLayer_override.json`, dir], 1000);
  assert.equal(isOwnChange(s, { paths: [`${dir}/VkLayer_override.json`], more: 0 }, 1500), true);
  assert.equal(isOwnChange(s, { paths: [`${dir}/VkLayer_override.json`, `${dir}/other.json`], more: 0 }, 1500), false, 'another file changed too');
  assert.equal(isOwnChange(s, { paths: [`${dir}/VkLayer_override.json`], more: 3 }, 1500), false, 'more paths than listed');
  assert.equal(isOwnChange(s, { paths: [], more: 0 }, 1500), false);
  assert.equal(isOwnChange(s, { paths: [`${dir}/VkLayer_override.json`], more: 0 }, 1000 + OWN_WRITE_WINDOW_MS + 1), false, 'too long after the write');
  // Old entries go when new ones are noted.
  s = noteOwnWrites(s, ['/x.json'], 1000 + OWN_WRITE_WINDOW_MS + 5);
  assert.deepEqual([...s.at.keys()], ['/x.json']);
});
