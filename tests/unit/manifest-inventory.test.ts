import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { buildInventory, hasErrors, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import { ManifestInventorySchema } from '../../shared/discovery/manifest-inventory-schema';

/**
 * shared/discovery/manifest-inventory.ts: discovery's answer from the files the scanner read, in
 * the loader's order. What the real loader finds is compared in tests/integration/discovery-vs-loader.test.ts.
 */
const layer = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: `lib${name}.so`, api_version: '1.3.0', implementation_version: '1', description: 'd', ...extra },
  });
const scanned = (kind: ScannedManifest['kind'], path: string, text: string | null, extra: Partial<ScannedManifest> = {}): ScannedManifest => ({
  path,
  kind,
  origin: 'XDG_DATA_DIRS[0]',
  location: path.slice(0, path.lastIndexOf('/')),
  order: 0,
  readdirOrder: false,
  text,
  problem: null,
  duplicateOf: null,
  ...extra,
});
const build = (s: Partial<Record<ScannedManifest['kind'], ScannedManifest[]>>) =>
  buildInventory(
    { implicit_layer: [], explicit_layer: [], driver: [] },
    { implicit_layer: s.implicit_layer ?? [], explicit_layer: s.explicit_layer ?? [], driver: s.driver ?? [] },
  );
const codes = (m: { diagnostics: { code?: string | number }[] }) => m.diagnostics.map((d) => String(d.code));

test('a layer manifest is summarized: name, type, meta, versions, library, components, variables', () => {
  const inv = build({
    implicit_layer: [
      scanned('implicit_layer', '/i/a.json', layer('VK_LAYER_a', { disable_environment: { DISABLE_A: '1' }, enable_environment: { ENABLE_A: '1' } })),
    ],
    explicit_layer: [scanned('explicit_layer', '/e/m.json', layer('VK_LAYER_m', { library_path: undefined, component_layers: ['VK_LAYER_a'] }))],
  });
  assert.ok(ManifestInventorySchema.safeParse(inv).success);
  const a = inv.manifests.implicit_layer?.[0];
  assert.equal(a?.fileFormatVersion, '1.2.0');
  assert.deepEqual(a?.layers[0], {
    name: 'VK_LAYER_a',
    type: 'GLOBAL',
    meta: false,
    apiVersion: '1.3.0',
    implementationVersion: '1',
    description: 'd',
    libraryPath: 'libVK_LAYER_a.so',
    componentLayers: [],
    disableEnvironment: ['DISABLE_A'],
    enableEnvironment: ['ENABLE_A'],
  });
  const m = inv.manifests.explicit_layer?.[0]?.layers[0];
  assert.equal(m?.meta, true);
  assert.deepEqual(m?.componentLayers, ['VK_LAYER_a']);
});

test('a driver manifest is summarized; a file that could not be read says why and what the loader does', () => {
  const inv = build({
    driver: [
      scanned(
        'driver',
        '/d/lvp.json',
        JSON.stringify({ file_format_version: '1.0.1', ICD: { library_path: '/lib/libvulkan_lvp.so', api_version: '1.3.0', is_portability_driver: true } }),
      ),
      scanned('driver', '/d/gone.json', null, { problem: 'dangling-symlink', order: 1 }),
      scanned('driver', '/d/fifo.json', null, { problem: 'not-regular', order: 2 }),
    ],
  });
  const [lvp, gone, fifo] = inv.manifests.driver ?? [];
  assert.deepEqual(lvp?.driver, { libraryPath: '/lib/libvulkan_lvp.so', apiVersion: '1.3.0', libraryArch: null, isPortabilityDriver: true });
  assert.deepEqual(codes(gone!), ['manifest/unreadable']);
  assert.match(gone!.diagnostics[0]!.message as string, /^\/d\/gone\.json is a symbolic link to a file that does not exist; the loader skips it\. Fix: /);
  assert.match(fifo!.diagnostics[0]!.message as string, /FIFO.*wait for a writer\)\. Fix: /);
  assert.doesNotMatch(fifo!.diagnostics[0]!.message as string, /the loader skips it/);
  assert.equal(gone?.layers.length, 0);
});

test('a file the loader reads twice is noted; the set rules see implicit layers before explicit ones and skip the second reading', () => {
  const text = layer('VK_LAYER_dup', { disable_environment: { D: '1' } });
  const inv = build({
    implicit_layer: [scanned('implicit_layer', '/i/dup.json', text), scanned('implicit_layer', '/i2/dup.json', text, { order: 1, duplicateOf: 0 })],
    explicit_layer: [scanned('explicit_layer', '/e/dup.json', layer('VK_LAYER_dup'))],
  });
  const [first, twice] = inv.manifests.implicit_layer ?? [];
  assert.deepEqual(codes(first!), []);
  assert.deepEqual(codes(twice!), ['manifest/read-twice']);
  assert.match(twice!.diagnostics[0]!.message as string, /also as manifest #1 of this kind/);
  assert.deepEqual(codes(inv.manifests.explicit_layer![0]!), ['layer/duplicate-name'], 'the explicit copy is shadowed by the implicit one');
});

test('hasErrors: only error severity counts', () => {
  const d = (severity: DiagnosticSeverity) => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: 'm', severity });
  assert.equal(hasErrors([]), false);
  assert.equal(hasErrors([d(DiagnosticSeverity.Warning), d(DiagnosticSeverity.Information)]), false);
  assert.equal(hasErrors([d(DiagnosticSeverity.Warning), d(DiagnosticSeverity.Error)]), true);
});
