import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { loaderMatrix, matrixSkip } from '../helpers/loader-builds';

// `strata lint` as a user on another distribution runs it: the loader on LD_LIBRARY_PATH is a real
// Khronos build of that version, and the lint's verdicts (what that loader does with the file) follow it.
test('strata lint speaks for the installed loader: invalid JSON fails everything on 1.3.239, is skipped on 1.4.341', { skip: matrixSkip() }, () => {
  const [old, recent] = loaderMatrix(['1.3.239', '1.4.341']);
  const home = makeTempHome();
  try {
    const folder = join(home.dir, 'layers');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'broken.json');
    writeFileSync(file, '{ "file_format_version": "1.2.0", "layer": { "name": "VK_LAYER_x", } }');
    const say = (libDir: string) => runStrata(['lint', file], { ...home.env, LD_LIBRARY_PATH: libDir });
    const a = say(old!.libDir);
    assert.equal(a.status, 1, a.stderr);
    assert.match(a.stdout, /Loader 1\.3\.239 cannot read the file and then fails vkEnumerateInstance\*Properties for every application/);
    const b = say(recent!.libDir);
    assert.equal(b.status, 1, b.stderr);
    assert.match(b.stdout, /Loader 1\.4\.341 skips the file \(loaders before 1\.3\.268 fail/);
  } finally {
    home.cleanup();
  }
});

test('strata lint (no argument) lints the vk_loader_settings.json the installed loader reads, for that loader', { skip: matrixSkip() }, () => {
  const [old, mid, recent] = loaderMatrix(['1.3.239', '1.4.321', '1.4.341']);
  const home = makeTempHome();
  try {
    const layers = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
    mkdirSync(layers, { recursive: true });
    const manifest = join(layers, 'a.json');
    const layer = { name: 'VK_LAYER_STRATA_a', type: 'GLOBAL', library_path: '/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so' };
    writeFileSync(
      manifest,
      JSON.stringify({ file_format_version: '1.2.0', layer: { ...layer, api_version: '1.3.0', implementation_version: '1', description: 'x' } }),
    );
    // Where 1.4.x looks (XDG_DATA_HOME); another tool wrote it: the layer after its own "off" entry.
    const settings = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'loader_settings.d', 'vk_loader_settings.json');
    mkdirSync(join(settings, '..'), { recursive: true });
    const entry = (control: string) => ({ control, name: 'VK_LAYER_STRATA_a', path: manifest });
    writeFileSync(settings, JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: [entry('off'), entry('on')] }] }, null, 2));
    const lint = (libDir: string) => {
      const r = runStrata(['lint', '--json'], { ...home.env, LD_LIBRARY_PATH: libDir });
      const results = JSON.parse(r.stdout) as { uri: string; diagnostics: { code: string; message: string }[] }[];
      return { status: r.status, settings: results.find((x) => x.uri === settings) };
    };
    const a = lint(old!.libDir);
    assert.equal(a.settings, undefined, 'loader 1.3.239 reads no settings file, so plain `strata lint` does not look for one');
    const b = lint(mid!.libDir);
    assert.equal(b.status, 1);
    assert.deepEqual(
      b.settings?.diagnostics.map((d) => d.code),
      ['settings/crashes-loader'],
    );
    assert.match(b.settings!.diagnostics[0]!.message, /loader 1\.4\.321 crashes in vkCreateInstance/);
    const c = lint(recent!.libDir);
    assert.deepEqual(c.settings?.diagnostics, [], 'fixed in 1.4.326');
  } finally {
    home.cleanup();
  }
});
