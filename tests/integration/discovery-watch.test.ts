import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiscoveryWatch } from '../../main/discovery/discovery-watch';
import { EventBus } from '../../main/platform/event-bus';
import type { StrataEvent } from '../../shared/ipc/contract';
import { withTempHome } from '../helpers/temp-home';

/**
 * main/discovery/discovery-watch.ts: the manifest watcher runs only while a UI client is attached,
 * and its changes reach the event bus as discovery.changed (the watcher itself, on inotify:
 * manifest-watcher.test.ts). No timing assertions: the test waits for the event.
 */
test(
  'watches only while attached (detach is idempotent); a manifest written meanwhile arrives as discovery.changed',
  withTempHome(async (home) => {
    const folder = join(home.dir, '.local', 'share', 'vulkan', 'explicit_layer.d');
    mkdirSync(folder, { recursive: true });
    const bus = new EventBus();
    const seen: StrataEvent[] = [];
    let arrived: () => void = () => {};
    const changed = new Promise<void>((resolve) => (arrived = resolve));
    bus.subscribe((e) => {
      seen.push(e);
      if (e.name === 'discovery.changed') arrived();
    });
    const watch = new DiscoveryWatch({ env: home.env, bus, cwd: home.dir, debounceMs: 20 });
    assert.equal(watch.watching, false, 'nothing is watched before a client attaches');
    const detachA = watch.attach();
    const detachB = watch.attach();
    assert.equal(watch.watching, true);
    writeFileSync(join(folder, 'new.json'), '{}');
    // The watches do not keep the process alive; a timer does, for as long as it takes (generously).
    let giveUp: NodeJS.Timeout | undefined;
    await Promise.race([changed, new Promise((_, reject) => (giveUp = setTimeout(() => reject(new Error('no discovery.changed within 30 s')), 30_000)))]);
    clearTimeout(giveUp);
    const event = seen.find((e) => e.name === 'discovery.changed');
    assert.ok(event && event.name === 'discovery.changed');
    assert.deepEqual(event.payload.kinds, ['explicit_layer']);
    assert.ok(
      event.payload.paths.some((p) => p.endsWith('/new.json')),
      JSON.stringify(event.payload),
    );
    detachA();
    detachA();
    assert.equal(watch.watching, true, 'one client is still attached (a second detach of the same client counts once)');
    detachB();
    assert.equal(watch.watching, false);
    watch.dispose();
  }),
);
