/**
 * `loader.version` in the CLI's own process (issue #19) only when the real loader maps no other
 * library to answer it; an implicit layer with a pre-instance hook keeps the question in the probe.
 * The layers are gcc-built fakes whose constructor crashes (tests/fixtures/layers/fake-layer.c):
 * had the CLI loaded one itself, it would die with SIGSEGV instead of answering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFakeLayers } from '../helpers/fake-layers';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { inProcessBlocker } from '../../main/bridge/loader-version-in-process';

const home = makeTempHome();
test.after(() => home.cleanup());
const fakes = buildFakeLayers(join(home.dir, 'fakes'));
const implicitDir = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d');
mkdirSync(implicitDir, { recursive: true });

/** An implicit layer whose library crashes when loaded; with `preInstance`, the loader loads it for vkEnumerateInstanceVersion. */
function implicitCrasher(file: string, preInstance: boolean) {
  const layer = {
    name: `VK_LAYER_STRATA_implicit_${file}`,
    type: 'GLOBAL',
    library_path: join(fakes.libDir, 'libfake_layer_ctor_segv.so'),
    api_version: '1.3.239',
    implementation_version: '1',
    description: 'crashes in its constructor',
    disable_environment: { STRATA_TEST_DISABLE_CRASHER: '1' },
    ...(preInstance ? { pre_instance_functions: { vkEnumerateInstanceVersion: 'Fake_EnumerateInstanceVersion' } } : {}),
  };
  writeFileSync(join(implicitDir, `${file}.json`), JSON.stringify({ file_format_version: '1.1.2', layer }, null, 2));
}

interface Info {
  loader: { found: boolean; version?: string; reason?: string };
}

test('no pre-instance hook: the CLI answers in process, the same answer as the probe and vulkaninfo', () => {
  implicitCrasher('plain', false);
  assert.equal(inProcessBlocker(home.env), null);
  const fast = runStrata(['info', '--json'], home.env);
  assert.equal(fast.status, 0, fast.stderr);
  // VK_LOADER_DEBUG keeps the probe (its log belongs to the probe's stderr): the reference answer.
  const probeEnv = { ...home.env, VK_LOADER_DEBUG: 'error' };
  assert.match(inProcessBlocker(probeEnv) ?? '', /VK_LOADER_DEBUG/);
  const viaProbe = runStrata(['info', '--json'], probeEnv);
  assert.equal(viaProbe.status, 0, viaProbe.stderr);
  assert.deepEqual(JSON.parse(fast.stdout), JSON.parse(viaProbe.stdout));
  // vulkaninfo creates an instance, which loads every enabled implicit layer: ask it with the crasher disabled.
  assert.equal((JSON.parse(fast.stdout) as Info).loader.version, vulkaninfoInstanceVersion({ ...home.env, STRATA_TEST_DISABLE_CRASHER: '1' }));
});

test('an implicit layer with a pre-instance hook: the probe answers, and its crash does not take the CLI down', () => {
  implicitCrasher('hooked', true);
  assert.match(inProcessBlocker(home.env) ?? '', /hooked\.json may name pre_instance_functions/);
  const r = runStrata(['info', '--json'], home.env);
  // The loader in the probe loaded the crashing library: the probe died, the CLI reports it (exit 1).
  assert.equal(r.status, 1, r.stderr);
  const info = JSON.parse(r.stdout) as Info;
  assert.equal(info.loader.found, false);
  assert.match(info.loader.reason ?? '', /probe .*(SIGSEGV|code 139)/);
  // Disabled through its disable_environment, the loader skips it: the probe answers (the check stays conservative).
  const off = runStrata(['info', '--json'], { ...home.env, STRATA_TEST_DISABLE_CRASHER: '1' });
  assert.equal(off.status, 0, off.stderr);
  assert.equal((JSON.parse(off.stdout) as Info).loader.found, true);
});

test('unreadable or escaped manifests and other platforms keep the probe', () => {
  writeFileSync(join(implicitDir, 'escaped.json'), '{"file_format_version": "1.1.2", "layer": {"name": "VK_LAYER_x", "pre_instance\\u005ffunctions": {}}}');
  assert.match(inProcessBlocker(home.env) ?? '', /may name pre_instance_functions/);
  assert.match(inProcessBlocker(home.env, 'win32') ?? '', /platform win32/);
  assert.match(inProcessBlocker({ ...home.env, VK_ADD_IMPLICIT_LAYER_PATH: '/tmp' }) ?? '', /VK_ADD_IMPLICIT_LAYER_PATH/);
});
