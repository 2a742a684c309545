import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createAppContext } from '../../main/hosts/app-context';
import { findAppRoot } from '../../main/platform/app-paths';
import type { StrataEvent } from '../../shared/ipc/events';
import { makeTempHome } from '../helpers/temp-home';
import { manifestCatalogue } from '../../main/discovery/manifest-catalogue';

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

test('warmUp (issue #19) loads what the first view needs, discovers the manifests once and starts no probe; the first view then answers', async () => {
  const home = makeTempHome();
  const ctx = createAppContext({ root, env: home.env });
  // The probe's process (private to BridgeClient): the warm-up asks the loader nothing, so none is started.
  const probe = () => (ctx.bridge as unknown as { child: unknown }).child;
  // Every discovery goes through the one catalogue: count those of this environment.
  const answer0 = manifestCatalogue.answer.bind(manifestCatalogue);
  let discoveries = 0;
  manifestCatalogue.answer = (request, compute) => {
    if (request.env === home.env) discoveries++;
    return answer0(request, compute);
  };
  try {
    await ctx.warmUp('browser');
    assert.equal(discoveries, 1, 'the warm-up discovers the manifests once (its answer warms the code, it is not kept)');
    assert.equal(probe(), null, 'no probe started by the warm-up');
    const answer = await ctx.router.call('discovery.manifests', {}, { host: 'browser' });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(probe(), null, 'discovery asks no probe either');
  } finally {
    manifestCatalogue.answer = answer0;
    ctx.dispose();
    home.cleanup();
  }
});
