import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { parseVulkaninfoSummary, runVulkaninfo } from '../helpers/real-vulkan';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { DiscoveredManifestSchema } from '../../shared/discovery/manifest-inventory-schema';
import { FileDiagnosticsSchema } from '../../shared/lint/diagnostic-schema';

const layerJson = (name: string, extra = '') =>
  `{\n  "file_format_version": "1.1.0",\n  "layer": {\n    "name": "${name}",\n    "type": "GLOBAL",\n    "library_path": "/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so",\n    "api_version": "1.3.239",\n    "implementation_version": "1",\n    "description": "test layer"${extra}\n  }\n}\n`;

function homeWithLayers(files: Record<string, string>) {
  const home = makeTempHome();
  const dir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { home, dir };
}

test('strata layer list --json: the same layers the real loader enumerates, with origins', () => {
  const { home, dir } = homeWithLayers({ 'a.json': layerJson('VK_LAYER_STRATA_test_a'), 'b.json': layerJson('VK_LAYER_STRATA_test_b') });
  try {
    const r = runStrata(['layer', 'list', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const manifests = DiscoveredManifestSchema.array().parse(JSON.parse(r.stdout));
    const names = manifests.flatMap((m) => m.layers.map((l) => l.name)).sort();
    const loader = parseVulkaninfoSummary(runVulkaninfo(['--summary'], home.env))
      .layers.map((l) => l.name)
      .sort();
    assert.deepEqual(names, loader);
    const ours = manifests.find((m) => m.path === join(dir, 'a.json'))!;
    assert.equal(ours.origin, 'XDG_CONFIG_HOME');
    assert.equal(ours.kind, 'explicit_layer');
    assert.deepEqual(ours.diagnostics, []);
    assert.equal(ours.layers[0]!.apiVersion, '1.3.239');

    const explicitOnly = DiscoveredManifestSchema.array().parse(JSON.parse(runStrata(['layer', 'list', '--json', '--explicit'], home.env).stdout));
    assert.ok(explicitOnly.every((m) => m.kind === 'explicit_layer'));
    const human = runStrata(['layer', 'list'], home.env).stdout;
    assert.match(human, /VK_LAYER_STRATA_test_a\s+explicit\s+1\.3\.239\s+1\s+XDG_CONFIG_HOME\s+ok/);
  } finally {
    home.cleanup();
  }
});

test('strata lint (everything discovered): a broken manifest gives its diagnostic at the exact place, exit 1', () => {
  const { home, dir } = homeWithLayers({ 'broken.json': layerJson('VK_LAYER_STRATA_broken', ',') });
  try {
    const r = runStrata(['lint', '--json'], home.env);
    assert.equal(r.status, 1, r.stderr);
    const results = FileDiagnosticsSchema.array().parse(JSON.parse(r.stdout));
    const broken = results.find((x) => x.uri === join(dir, 'broken.json'))!;
    assert.deepEqual(
      broken.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      [['manifest/invalid-json', 9, 2]],
    );
    // Debian's own manifests are clean.
    assert.ok(results.filter((x) => x.uri.startsWith('/usr/share/vulkan/')).every((x) => x.diagnostics.length === 0));
    const human = runStrata(['lint'], home.env);
    assert.match(human.stdout, new RegExp(`${join(dir, 'broken.json').replace(/[.]/g, '\\.')}:10:3: error \\[manifest/invalid-json\\]`));
    assert.match(human.stdout, /files checked: 1 error, 0 warnings\.$/m);
  } finally {
    home.cleanup();
  }
});

test('strata lint FILE|DIR: the bad corpus has errors; a clean file exits 0', () => {
  const home = makeTempHome();
  try {
    const bad = runStrata(['lint', '--json', join(APP_ROOT, 'tests', 'fixtures', 'manifests', 'bad')], home.env);
    assert.equal(bad.status, 1);
    const results = FileDiagnosticsSchema.array().parse(JSON.parse(bad.stdout));
    assert.ok(results.length >= 60);
    const good = join(home.dir, 'good.json');
    writeFileSync(good, layerJson('VK_LAYER_STRATA_good'));
    const ok = runStrata(['lint', good], home.env);
    assert.equal(ok.status, 0, ok.stdout);
    assert.match(ok.stdout, /^1 file checked: 0 errors, 0 warnings\.$/m);
    const missing = runStrata(['lint', join(home.dir, 'nope.json')], home.env);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^strata: No such file or folder: .*nope\.json .*Fix: check the path\n$/);
  } finally {
    home.cleanup();
  }
});

test('strata driver list --json: VK_DRIVER_FILES replaces the search, as the loader does', () => {
  const lvp = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
  const home = makeTempHome({ VK_DRIVER_FILES: lvp });
  try {
    const r = runStrata(['driver', 'list', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const drivers = DiscoveredManifestSchema.array().parse(JSON.parse(r.stdout));
    assert.deepEqual(
      drivers.map((d) => [d.path, d.origin, d.driver?.libraryPath]),
      [[lvp, 'VK_DRIVER_FILES[0]', '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so']],
    );
  } finally {
    home.cleanup();
  }
});

test('strata lint DIR: a prefix such as /usr/share/vulkan lints its loader folders (Debian’s manifests, clean), not registry/; an empty folder is an error', () => {
  const home = makeTempHome();
  try {
    const r = runStrata(['lint', '--json', '/usr/share/vulkan'], home.env);
    assert.equal(r.status, 0, r.stdout);
    const uris = FileDiagnosticsSchema.array()
      .parse(JSON.parse(r.stdout))
      .map((x) => x.uri);
    for (const d of ['icd.d', 'implicit_layer.d', 'explicit_layer.d'])
      assert.ok(
        uris.some((u) => u.startsWith(`/usr/share/vulkan/${d}/`)),
        `${d} in ${uris.join(', ')}`,
      );
    assert.ok(
      uris.every((u) => /\/(icd|implicit_layer|explicit_layer)\.d\/[^/]+\.json$/.test(u)),
      'only the loader folders',
    );
    const empty = runStrata(['lint', home.dir], home.env);
    assert.equal(empty.status, 1);
    assert.match(empty.stderr, /^strata: No \*\.json manifest in .*Fix: name a manifest/);
  } finally {
    home.cleanup();
  }
});
