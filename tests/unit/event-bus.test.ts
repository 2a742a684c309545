import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../main/platform/event-bus';
import type { StrataEvent } from '../../shared/ipc/events';

/**
 * main/platform/event-bus.ts: contract events fanned out to every attached host. A payload is checked
 * against the contract on emit: a bad one throws at the emitter and reaches no listener.
 */
test('every subscriber gets each event with its payload as parsed; unsubscribe stops it; size counts listeners', () => {
  const bus = new EventBus();
  const a: StrataEvent[] = [];
  const b: StrataEvent[] = [];
  assert.equal(bus.size, 0);
  const stopA = bus.subscribe((e) => a.push(e));
  bus.subscribe((e) => b.push(e));
  assert.equal(bus.size, 2);
  bus.emit('ui.navigate', { panel: 'layers' });
  stopA();
  assert.equal(bus.size, 1);
  bus.emit('host.notice', { level: 'warning', message: 'disk full' });
  assert.deepEqual(a, [{ name: 'ui.navigate', payload: { panel: 'layers' } }]);
  assert.deepEqual(
    b.map((e) => e.name),
    ['ui.navigate', 'host.notice'],
  );
  stopA();
  assert.equal(bus.size, 1, 'a second unsubscribe changes nothing');
});

test('a payload that breaks the contract throws at emit and reaches no listener', () => {
  const bus = new EventBus();
  const seen: StrataEvent[] = [];
  bus.subscribe((e) => seen.push(e));
  assert.throws(() => bus.emit('host.notice', { level: 'fatal', message: 'x' } as never), /level/);
  assert.throws(() => bus.emit('ui.navigate', {} as never));
  assert.deepEqual(seen, []);
});

test("listeners get the payload as the contract reads it (unknown fields dropped), not the emitter's object", () => {
  const bus = new EventBus();
  const seen: StrataEvent[] = [];
  bus.subscribe((e) => seen.push(e));
  const payload = { panel: 'layers', secret: 'not in the contract' };
  bus.emit('ui.navigate', payload as never);
  assert.deepEqual(seen, [{ name: 'ui.navigate', payload: { panel: 'layers' } }]);
  assert.notEqual(seen[0]!.payload, payload);
});

test('emit with nobody listening is harmless and still validates', () => {
  const bus = new EventBus();
  bus.emit('ui.navigate', { panel: 'x' });
  assert.throws(() => bus.emit('ui.navigate', { panel: 1 } as never));
});
