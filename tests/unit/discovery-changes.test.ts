import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiscoveryChangedSchema, DiscoveryChangeSet, MAX_CHANGED_PATHS } from '../../shared/discovery/discovery-changes';

// shared/discovery/discovery-changes.ts: one debounce window's changes become one event payload.
test('kinds come out in the loader’s order (implicit, explicit, driver), paths once each in arrival order', () => {
  const set = new DiscoveryChangeSet();
  assert.equal(set.empty, true);
  assert.equal(set.take(), null);
  set.add(['driver'], '/d/icd.json');
  set.add(['explicit_layer', 'implicit_layer'], '/l/a.json');
  set.add(['driver'], '/d/icd.json');
  assert.equal(set.empty, false);
  const payload = set.take();
  assert.deepEqual(payload, { kinds: ['implicit_layer', 'explicit_layer', 'driver'], paths: ['/d/icd.json', '/l/a.json'], more: 0 });
  assert.ok(DiscoveryChangedSchema.safeParse(payload).success);
  assert.equal(set.take(), null, 'take empties the set');
  assert.equal(set.empty, true);
});

test('more than MAX_CHANGED_PATHS paths: the first ones are listed, the rest counted', () => {
  const set = new DiscoveryChangeSet();
  for (let i = 0; i < MAX_CHANGED_PATHS + 7; i++) set.add(['explicit_layer'], `/l/${i}.json`);
  const payload = set.take()!;
  assert.equal(payload.paths.length, MAX_CHANGED_PATHS);
  assert.equal(payload.paths[0], '/l/0.json');
  assert.equal(payload.more, 7);
  assert.ok(DiscoveryChangedSchema.safeParse(payload).success);
  assert.ok(!DiscoveryChangedSchema.safeParse({ ...payload, paths: [...payload.paths, 'x'] }).success);
});

test('a path added with no kind changes nothing', () => {
  const set = new DiscoveryChangeSet();
  set.add([], '/x.json');
  assert.equal(set.empty, true);
  assert.equal(set.take(), null);
});
