import { test } from 'node:test';
import assert from 'node:assert/strict';
import { events, isEventName, parseEvent } from '../../shared/ipc/events';

// shared/ipc/events.ts: events cross a process (or network) boundary, so each is parsed against the
// contract on arrival; anything else is dropped (null), never thrown.
test('isEventName: exactly the contract’s events, not inherited keys', () => {
  for (const name of Object.keys(events)) assert.equal(isEventName(name), true, name);
  assert.equal(isEventName('toString'), false);
  assert.equal(isEventName('__proto__'), false);
  assert.equal(isEventName('host.notices'), false);
});

test('parseEvent: a matching payload comes back parsed; a wrong name, type or payload gives null', () => {
  assert.deepEqual(parseEvent('host.notice', { level: 'warning', message: 'stopping' }), {
    name: 'host.notice',
    payload: { level: 'warning', message: 'stopping' },
  });
  assert.deepEqual(parseEvent('ui.navigate', { panel: 'about' }), { name: 'ui.navigate', payload: { panel: 'about' } });
  assert.equal(parseEvent('host.notice', { level: 'shout', message: 'x' }), null);
  assert.equal(parseEvent('ui.navigate', {}), null);
  assert.equal(parseEvent(42, { panel: 'about' }), null);
  assert.equal(parseEvent('constructor', {}), null);
  assert.equal(parseEvent('discovery.changed', { kinds: [], paths: [], more: 0 }), null, 'a change names at least one kind');
  assert.deepEqual(parseEvent('discovery.changed', { kinds: ['driver'], paths: ['/a.json'], more: 0 })?.payload, {
    kinds: ['driver'],
    paths: ['/a.json'],
    more: 0,
  });
});
