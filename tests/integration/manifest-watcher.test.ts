import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { ManifestWatcher, type ManifestWatcherOptions } from '../../main/discovery/manifest-watcher';
import { DiscoveryWatch } from '../../main/discovery/discovery-watch';
import { EventBus } from '../../main/platform/event-bus';
import { computeSearchPaths, DEBIAN_LINUX, MANIFEST_KINDS, type SearchPaths } from '../../shared/loader/search-paths';
import type { DiscoveryChanged } from '../../shared/discovery/discovery-changes';
import type { StrataEvent } from '../../shared/ipc/contract';
import { startBrowserHost } from '../../main/hosts/serve/browser-host';
import { createRouter } from '../../main/router/router';
import { countingHandlers } from '../helpers/counting-handlers';

/**
 * The manifest watcher on a real temporary tree (inotify): create, edit, delete, a search folder
 * made later, a single-file entry replaced by rename, a folder removed and made again. No timing
 * assertions: each step waits (generously) for the next event, and debouncing is checked by what
 * the *next* event holds — a burst written in one synchronous run must arrive as exactly one event,
 * so the event after it holds only what came after the burst.
 */

const WAIT_MS = 15_000;

const layer = (name: string) =>
  JSON.stringify({
    file_format_version: '1.1.0',
    layer: { name, type: 'GLOBAL', library_path: './x.so', api_version: '1.3.0', implementation_version: '1', description: 'w' },
  });

/** Events in arrival order; `next()` waits for the next one not yet taken. */
class EventQueue<T> {
  private readonly items: T[] = [];
  private readonly waiting: ((item: T) => void)[] = [];
  taken = 0;
  push = (item: T) => {
    const w = this.waiting.shift();
    if (w) w(item);
    else this.items.push(item);
  };
  next(what: string): Promise<T> {
    this.taken++;
    const ready = this.items.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no event within ${WAIT_MS} ms: ${what}`)), WAIT_MS);
      this.waiting.push((item) => {
        clearTimeout(timer);
        resolve(item);
      });
    });
  }
  get queued(): number {
    return this.items.length;
  }
}

/** The search paths of `home`'s environment (plus `env`), only the locations inside the home: system folders may change under other tests. */
function homePaths(home: TempHome, env: Record<string, string> = {}): SearchPaths {
  const all = computeSearchPaths({ platform: DEBIAN_LINUX, env: { ...home.env, ...env }, user: { home: home.dir, elevated: false } });
  const out = {} as SearchPaths;
  for (const k of MANIFEST_KINDS) out[k] = all[k].filter((l) => l.path.startsWith(home.dir));
  return out;
}

function startWatcher(paths: SearchPaths, extra: Partial<ManifestWatcherOptions> = {}) {
  const events = new EventQueue<DiscoveryChanged>();
  const problems: string[] = [];
  const watcher = new ManifestWatcher({ paths, onChange: events.push, onProblem: (m) => problems.push(m), ...extra });
  watcher.start();
  return { watcher, events, problems };
}

test('create, edit, delete a manifest: one event each, with its kind and path; a burst is one event', async () => {
  const home = makeTempHome();
  const explicitDir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  const driverDir = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'icd.d');
  mkdirSync(explicitDir, { recursive: true });
  mkdirSync(driverDir, { recursive: true });
  const { watcher, events } = startWatcher(homePaths(home));
  try {
    assert.ok(watcher.watchedFolders.includes(explicitDir), 'an existing search folder is watched itself');
    const a = join(explicitDir, 'a.json');
    writeFileSync(a, layer('VK_LAYER_STRATA_a'));
    assert.deepEqual(await events.next('create a.json'), { kinds: ['explicit_layer'], paths: [a], more: 0 });

    writeFileSync(a, layer('VK_LAYER_STRATA_a2'));
    assert.deepEqual(await events.next('edit a.json'), { kinds: ['explicit_layer'], paths: [a], more: 0 });

    // Not a manifest: the loader reads only *.json, so nothing to report; the next event is the delete.
    writeFileSync(join(explicitDir, 'notes.txt'), 'x');
    rmSync(a);
    assert.deepEqual(await events.next('delete a.json'), { kinds: ['explicit_layer'], paths: [a], more: 0 });

    // A burst over two kinds, written in one synchronous run: one event with everything.
    const burst = Array.from({ length: 20 }, (_, i) => join(explicitDir, `burst${i}.json`));
    for (const p of burst) writeFileSync(p, layer('VK_LAYER_STRATA_burst'));
    writeFileSync(join(driverDir, 'icd.json'), '{"file_format_version":"1.0.0","ICD":{"library_path":"x.so","api_version":"1.3.0"}}');
    const one = await events.next('the burst');
    assert.deepEqual(one.kinds, ['explicit_layer', 'driver']);
    assert.deepEqual(new Set(one.paths), new Set([...burst, join(driverDir, 'icd.json')]));

    // Had the burst been split into several events, the next one would still hold burst paths.
    rmSync(burst[3]!);
    assert.deepEqual(await events.next('delete after the burst'), { kinds: ['explicit_layer'], paths: [burst[3]], more: 0 });
    assert.equal(events.queued, 0);
  } finally {
    watcher.close();
    home.cleanup();
  }
});

test('onPending: called at the first change of a burst, before its onChange, once per burst; never for a file the loader does not read', async () => {
  const home = makeTempHome();
  const explicitDir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(explicitDir, { recursive: true });
  const order: string[] = [];
  const { watcher, events } = startWatcher(homePaths(home), { onPending: () => order.push('pending') });
  try {
    // Not a manifest: re-arms, reports nothing, announces nothing.
    writeFileSync(join(explicitDir, 'notes.txt'), 'x');
    renameSync(join(explicitDir, 'notes.txt'), join(explicitDir, 'notes2.txt'));
    for (let i = 0; i < 5; i++) writeFileSync(join(explicitDir, `p${i}.json`), layer('VK_LAYER_STRATA_p'));
    await events.next('the burst');
    order.push('change');
    writeFileSync(join(explicitDir, 'q.json'), layer('VK_LAYER_STRATA_q'));
    await events.next('the next change');
    order.push('change');
    assert.deepEqual(order, ['pending', 'change', 'pending', 'change']);
  } finally {
    watcher.close();
    home.cleanup();
  }
});

test('a missing search folder made later (two levels deep) is noticed, then watched itself', async () => {
  const home = makeTempHome();
  const later = join(home.dir, 'later', 'deeper', 'layers');
  const { watcher, events } = startWatcher(homePaths(home, { VK_ADD_LAYER_PATH: later }));
  try {
    assert.ok(watcher.watchedFolders.includes(home.dir), 'the nearest existing ancestor is watched');
    mkdirSync(later, { recursive: true });
    writeFileSync(join(later, 'a.json'), layer('VK_LAYER_STRATA_later'));
    // The folder appearing is the change (its files are read by whoever refreshes).
    assert.deepEqual(await events.next('folder made'), { kinds: ['explicit_layer'], paths: [later], more: 0 });
    assert.ok(watcher.watchedFolders.includes(later));
    writeFileSync(join(later, 'b.json'), layer('VK_LAYER_STRATA_later_b'));
    assert.deepEqual(await events.next('file in the new folder'), { kinds: ['explicit_layer'], paths: [join(later, 'b.json')], more: 0 });

    // Removed and made again: the old watch (on the removed inode) is replaced.
    rmSync(join(home.dir, 'later'), { recursive: true });
    // Its files go first (each a change), then the folder itself.
    const removed = await events.next('folder removed');
    assert.deepEqual(removed.kinds, ['explicit_layer']);
    assert.deepEqual(new Set(removed.paths), new Set([join(later, 'a.json'), join(later, 'b.json'), later]));
    mkdirSync(later, { recursive: true });
    assert.deepEqual(await events.next('folder made again'), { kinds: ['explicit_layer'], paths: [later], more: 0 });
    writeFileSync(join(later, 'c.json'), layer('VK_LAYER_STRATA_later_c'));
    assert.deepEqual(await events.next('file in the folder made again'), { kinds: ['explicit_layer'], paths: [join(later, 'c.json')], more: 0 });
  } finally {
    watcher.close();
    home.cleanup();
  }
});

test('single-file entries (VK_LAYER_PATH a.json, VK_DRIVER_FILES): created, replaced by rename, removed', async () => {
  const home = makeTempHome();
  const file = join(home.dir, 'single', 'x.json');
  const driver = join(home.dir, 'drivers', 'icd.json');
  mkdirSync(join(home.dir, 'drivers'));
  const { watcher, events } = startWatcher(homePaths(home, { VK_LAYER_PATH: file, VK_DRIVER_FILES: driver }));
  try {
    assert.ok(watcher.watchedFolders.includes(join(home.dir, 'drivers')), 'a file entry is watched through its folder');
    mkdirSync(join(home.dir, 'single'));
    writeFileSync(file, layer('VK_LAYER_STRATA_single'));
    assert.deepEqual(await events.next('file made with its folder'), { kinds: ['explicit_layer'], paths: [file], more: 0 });

    // An editor's save: write a temporary file, rename it over the manifest.
    writeFileSync(`${file}.tmp`, layer('VK_LAYER_STRATA_single2'));
    renameSync(`${file}.tmp`, file);
    assert.deepEqual(await events.next('replaced by rename'), { kinds: ['explicit_layer'], paths: [file], more: 0 });

    writeFileSync(driver, '{}');
    assert.deepEqual(await events.next('driver file'), { kinds: ['driver'], paths: [driver], more: 0 });
    rmSync(file);
    assert.deepEqual(await events.next('file removed'), { kinds: ['explicit_layer'], paths: [file], more: 0 });
  } finally {
    watcher.close();
    home.cleanup();
  }
});

/** fs.watch, except for the folders in `refuse`, which fail as a real EACCES would. */
function refusingWatch(refuse: Set<string>, opened: { path: string; watcher: FSWatcher }[]) {
  return (path: string, listener: (event: string, name: string | null) => void): FSWatcher => {
    if (refuse.has(path)) throw Object.assign(new Error(`EACCES: watch ${path}`), { code: 'EACCES' });
    const watcher = watch(path, { persistent: false }, (event, name) => listener(event, name === null ? null : String(name)));
    opened.push({ path, watcher });
    return watcher;
  };
}

test('a folder that cannot be watched is reported once, and the others keep working; a failing watch is re-armed', async () => {
  const home = makeTempHome();
  const blocked = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  const open = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(blocked, { recursive: true });
  mkdirSync(open, { recursive: true });
  const opened: { path: string; watcher: FSWatcher }[] = [];
  const { watcher, events, problems } = startWatcher(homePaths(home), { watchFolder: refusingWatch(new Set([blocked]), opened) });
  try {
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, new RegExp(`cannot watch ${blocked.replace(/[.]/g, '\\.')} .*permission denied`));
    for (const round of [1, 2]) {
      writeFileSync(join(open, `${round}.json`), layer('VK_LAYER_STRATA_open'));
      assert.deepEqual(await events.next(`round ${round}`), { kinds: ['explicit_layer'], paths: [join(open, `${round}.json`)], more: 0 });
    }
    assert.equal(problems.length, 1, 'reported once, not at every re-arm');

    // An asynchronous error (the inotify limit): reported, the folder counted as changed (changes
    // may have been missed), its watch opened again; nothing throws.
    const first = opened.filter((o) => o.path === open);
    assert.equal(first.length, 1);
    first[0]!.watcher.emit('error', Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
    assert.deepEqual(await events.next('after the error'), { kinds: ['explicit_layer'], paths: [open], more: 0 });
    assert.ok(
      problems.some((p) => /inotify watches/.test(p)),
      problems.join('\n'),
    );
    assert.equal(opened.filter((o) => o.path === open).length, 2, 're-armed');
    writeFileSync(join(open, '3.json'), layer('VK_LAYER_STRATA_open'));
    assert.deepEqual(await events.next('after the re-arm'), { kinds: ['explicit_layer'], paths: [join(open, '3.json')], more: 0 });
  } finally {
    watcher.close();
    home.cleanup();
  }
});

test('close(): every watch closed, and a change pending at that moment is never sent', async () => {
  const home = makeTempHome();
  const dir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(dir, { recursive: true });
  const opened: { path: string; watcher: FSWatcher }[] = [];
  const closing = startWatcher(homePaths(home), { watchFolder: refusingWatch(new Set(), opened) });
  // A second watcher on the same tree tells when the change has gone through (no clock involved).
  const control = startWatcher(homePaths(home));
  const closed = new Set<FSWatcher>();
  for (const o of opened) o.watcher.on('close', () => closed.add(o.watcher));
  try {
    writeFileSync(join(dir, 'a.json'), layer('VK_LAYER_STRATA_a'));
    await new Promise((r) => setImmediate(r)); // the inotify events reach both watchers
    closing.watcher.close();
    await control.events.next('the control watcher sees the change');
    assert.equal(closing.events.queued, 0, 'the closed watcher sent nothing');
    assert.equal(closed.size, opened.length);
    assert.deepEqual(closing.watcher.watchedFolders, []);
  } finally {
    closing.watcher.close();
    control.watcher.close();
    home.cleanup();
  }
});

test('DiscoveryWatch: watches only while a UI client is attached, and emits discovery.changed on the bus', async () => {
  const home = makeTempHome();
  const bus = new EventBus();
  const seen = new EventQueue<StrataEvent>();
  bus.subscribe((e) => {
    if (e.name === 'discovery.changed' && e.payload.paths.some((p) => p.startsWith(home.dir))) seen.push(e);
  });
  const watch = new DiscoveryWatch({ env: home.env, bus, cwd: home.dir });
  try {
    assert.equal(watch.watching, false, 'no client, no watches');
    const detachA = watch.attach();
    const detachB = watch.attach();
    assert.equal(watch.watching, true);
    const dir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'implicit_layer.d');
    mkdirSync(dir, { recursive: true });
    const ev = await seen.next('implicit folder made');
    assert.deepEqual(ev.payload, { kinds: ['implicit_layer'], paths: [dir], more: 0 });
    detachA();
    detachA(); // idempotent: B is still attached
    assert.equal(watch.watching, true);
    detachB();
    assert.equal(watch.watching, false, 'the last client left');
  } finally {
    watch.dispose();
    home.cleanup();
  }
});

test('strata serve wiring: an event-stream client attaches (watches armed), gets discovery.changed, and its leaving stops the watches', async () => {
  const home = makeTempHome();
  const bus = new EventBus();
  const watchHost = new DiscoveryWatch({ env: home.env, bus, cwd: home.dir });
  const TOKEN = 'watch-test-token-0123456789';
  mkdirSync(join(home.dir, 'renderer'));
  writeFileSync(join(home.dir, 'preload.js'), '');
  const host = await startBrowserHost({
    router: createRouter(countingHandlers().handlers),
    bus,
    rendererDir: join(home.dir, 'renderer'),
    browserPreloadFile: join(home.dir, 'preload.js'),
    token: TOKEN,
    attachClient: () => watchHost.attach(),
  });
  let req: ClientRequest | null = null;
  try {
    assert.equal(watchHost.watching, false, 'no page, no watches');
    const dir = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'icd.d');
    const frames = new EventQueue<string>();
    await new Promise<void>((resolve, reject) => {
      req = httpRequest(
        { host: '127.0.0.1', port: host.port, path: '/api/events', headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${TOKEN}` } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (text.includes(': connected')) resolve();
            for (let m = text.match(/data: (.*)\n\n/); m; m = text.match(/data: (.*)\n\n/)) {
              frames.push(m[1]!);
              text = text.slice(m.index! + m[0].length);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(watchHost.watching, true, 'armed when the stream opened');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'x.json'), '{}');
    for (;;) {
      const event = JSON.parse(await frames.next('discovery.changed over SSE')) as StrataEvent;
      if (event.name !== 'discovery.changed' || !event.payload.paths.some((p) => p.startsWith(home.dir))) continue;
      assert.deepEqual(event.payload.kinds, ['driver']);
      break;
    }
    (req as ClientRequest | null)?.destroy();
    // The server sees the stream close a moment later; wait for that, not for a time.
    for (let i = 0; i < 500 && watchHost.watching; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(watchHost.watching, false, 'the last page left');
  } finally {
    (req as ClientRequest | null)?.destroy();
    await host.close();
    watchHost.dispose();
    home.cleanup();
  }
});
