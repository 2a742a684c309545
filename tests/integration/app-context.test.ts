import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppContext } from '../../main/hosts/app-context';
import { findAppRoot } from '../../main/platform/app-paths';
import type { StrataEvent } from '../../shared/ipc/events';
import { makeTempHome } from '../helpers/temp-home';
import { manifestCatalogue } from '../../main/discovery/manifest-catalogue';
import { FIRST_VIEW_REQUEST } from '../../shared/ipc/first-view-request';

/**
 * main/hosts/app-context.ts: the UI hosts' wiring. Manifest folders are watched only while a UI client is
 * attached, and their changes arrive on the context's bus; launches made through the context report
 * on that same bus; dispose stops both. (The watcher itself: tests/integration/manifest-watcher.test.ts.)
 */
const root = findAppRoot();

function waitFor(events: StrataEvent[], match: (e: StrataEvent) => boolean, what: string, ms = 15_000): Promise<StrataEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const hit = events.find(match);
      if (hit) return resolve(hit);
      if (Date.now() - started > ms) return reject(new Error(`no ${what} within ${ms} ms`));
      setTimeout(check, 20);
    };
    check();
  });
}

/** Counts the scans of `env` (every one goes through the one catalogue: computations, not answers) until stop(). */
function countScans(env: object): { count: number; stop(): void } {
  const answer0 = manifestCatalogue.answer.bind(manifestCatalogue);
  const counter = { count: 0, stop: () => void (manifestCatalogue.answer = answer0) };
  manifestCatalogue.answer = (request, compute) =>
    answer0(request, (r) => {
      if (r.env === env) counter.count++;
      return compute(r);
    });
  return counter;
}

test('a UI client attached: a manifest folder made under the given HOME arrives as discovery.changed on the bus', async () => {
  const home = makeTempHome();
  const ctx = createAppContext({ root, env: home.env });
  const events: StrataEvent[] = [];
  ctx.bus.subscribe((e) => events.push(e));
  try {
    const detach = ctx.attachUiClient();
    const dir = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d');
    mkdirSync(dir, { recursive: true });
    const changed = await waitFor(events, (e) => e.name === 'discovery.changed', 'discovery.changed');
    assert.deepEqual(changed.payload, { kinds: ['explicit_layer'], paths: [dir], more: 0 });
    detach();
  } finally {
    ctx.dispose();
    home.cleanup();
  }
});

test("launches made through the context report on the context's bus", async () => {
  const home = makeTempHome();
  const ctx = createAppContext({ root, env: home.env });
  const events: StrataEvent[] = [];
  ctx.bus.subscribe((e) => events.push(e));
  try {
    const sessions = await ctx.sessions();
    const s = await sessions.start({ command: '/bin/sh', args: ['-c', 'echo live'], cwd: home.dir, routeValidation: false });
    await s.ended;
    const names = events.map((e) => e.name).filter((n) => n.startsWith('session.'));
    assert.equal(names[0], 'session.started');
    assert.equal(names.at(-1), 'session.ended');
    const lines = events.flatMap((e) => (e.name === 'session.lines' ? e.payload.records : []));
    assert.deepEqual(
      lines.map((r) => (r.kind === 'line' ? r.text : '')),
      ['live'],
    );
  } finally {
    ctx.dispose();
    home.cleanup();
  }
});

test('warmUp (issue #19) watches, discovers once and keeps that answer, and asks the loader its version once: the first view then takes both, with no scan and no probe request', async () => {
  const home = makeTempHome();
  const ctx = createAppContext({ root, env: home.env });
  const events: StrataEvent[] = [];
  ctx.bus.subscribe((e) => events.push(e));
  // A layer whose library is not there yet.
  const layers = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(layers, { recursive: true });
  // Outside the watched folders: only the kept answer's own check can see it appear.
  const libraries = join(home.dir, 'libs');
  mkdirSync(libraries);
  const library = join(libraries, 'libVkLayer_warm.so');
  const manifest = {
    file_format_version: '1.2.0',
    layer: { name: 'VK_LAYER_warm', type: 'GLOBAL', library_path: library, api_version: '1.3.0', implementation_version: '1', description: 'd' },
  };
  writeFileSync(join(layers, 'warm.json'), JSON.stringify(manifest));
  const scans = countScans(home.env);
  const asked: string[] = [];
  const request0 = ctx.bridge.request.bind(ctx.bridge);
  ctx.bridge.request = ((method: string, ...rest: unknown[]) => {
    asked.push(method);
    return (request0 as (m: string, ...r: unknown[]) => unknown)(method, ...rest);
  }) as typeof ctx.bridge.request;
  const firstView = async () => {
    const answer = await ctx.router.call('discovery.manifests', FIRST_VIEW_REQUEST.request, { host: 'browser' });
    assert.ok(answer.ok, JSON.stringify(answer));
    return JSON.stringify(answer.value);
  };
  try {
    await ctx.warmUp('browser');
    assert.equal(scans.count, 2, "the warm-up scans twice: discovery.manifests' and the services' (no loader version for the lint: another key)");
    assert.deepEqual(asked, ['loader.version'], "the warm-up asks the loader's version, and nothing else");

    const first = await firstView();
    assert.equal(scans.count, 2, "the first view takes the warm-up's answer");
    assert.match(first, /libVkLayer_warm\.so/);
    const context = await ctx.router.call('chain.context', {}, { host: 'browser' });
    assert.ok(context.ok, JSON.stringify(context));
    assert.deepEqual(asked, ['loader.version'], 'chain.context takes the kept version: no probe request');
    assert.equal(scans.count, 2, 'chain.context takes the kept answer too');

    // What the watcher cannot see: the library appears. The kept answer is not handed out again.
    writeFileSync(library, 'not an ELF file');
    const second = await firstView();
    assert.equal(scans.count, 3, 'a library file changed since the scan: scanned again');
    assert.notEqual(second, first, "the lint's verdict on the library changed");
    assert.equal(await firstView(), second);
    assert.equal(scans.count, 3, 'nothing changed since: kept');

    // Without `fresh: false` (Refresh, the CLI): always a scan.
    assert.ok((await ctx.router.call('discovery.manifests', {}, { host: 'browser' })).ok);
    assert.equal(scans.count, 4);

    // A manifest changed: the kept answer goes with the watcher's first event, before its debounce ends.
    writeFileSync(join(layers, 'warm.json'), JSON.stringify({ ...manifest, layer: { ...manifest.layer, description: 'changed' } }));
    await waitFor(events, (e) => e.name === 'discovery.changed', 'discovery.changed');
    assert.match(await firstView(), /changed/);
    assert.equal(scans.count, 5);
  } finally {
    scans.stop();
    ctx.dispose();
    home.cleanup();
  }
});

test('warmUp after a page asked first (strata serve --open): the page’s kept answer serves the warm-up, which scans only for the services', async () => {
  const home = makeTempHome();
  const ctx = createAppContext({ root, env: home.env });
  const scans = countScans(home.env);
  try {
    const detach = ctx.attachUiClient();
    assert.ok((await ctx.router.call('discovery.manifests', FIRST_VIEW_REQUEST.request, { host: 'browser' })).ok);
    assert.equal(scans.count, 1);
    await ctx.warmUp('browser');
    assert.equal(scans.count, 2, "discovery.manifests' answer was kept: only chain.context's (another key) scanned");
    detach();
  } finally {
    scans.stop();
    ctx.dispose();
    home.cleanup();
  }
});
