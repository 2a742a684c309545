import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { emptyInspection, layerLabel, layerProbeDiedError, layerSymbols, LOADER_LAYER_INTERFACE_VERSION } from '../../shared/vulkan/layer-inspection';

// shared/vulkan/layer-inspection.ts (LoaderLayerInterface.md, "Layer Manifest File Format", "functions").
const HEADER = '/usr/include/vulkan/vk_layer.h';
const noHeader = existsSync(HEADER) ? false : `did not run: ${HEADER} is missing (Debian package libvulkan-dev)`;

test('the interface version offered is vk_layer.h’s CURRENT_LOADER_LAYER_INTERFACE_VERSION', { skip: process.env['CI'] === 'true' ? false : noHeader }, () => {
  const m = /#define CURRENT_LOADER_LAYER_INTERFACE_VERSION (\d+)/.exec(readFileSync(HEADER, 'utf8'));
  assert.equal(Number(m?.[1]), LOADER_LAYER_INTERFACE_VERSION);
});

test('layerSymbols: the loader’s three lookups (renamed by "functions"), pre-instance functions, each entrypoint once', () => {
  const symbols = layerSymbols({
    functions: { vkGetInstanceProcAddr: 'myGIPA' },
    preInstance: { vkEnumerateInstanceLayerProperties: 'myEnum' },
    entrypoints: ['vkSetDebugUtilsObjectNameEXT', 'vkSetDebugUtilsObjectNameEXT'],
  });
  assert.deepEqual(symbols, [
    { role: 'negotiate', function: 'vkNegotiateLoaderLayerInterfaceVersion', symbol: 'vkNegotiateLoaderLayerInterfaceVersion' },
    { role: 'get-instance-proc-addr', function: 'vkGetInstanceProcAddr', symbol: 'myGIPA' },
    { role: 'get-device-proc-addr', function: 'vkGetDeviceProcAddr', symbol: 'vkGetDeviceProcAddr' },
    { role: 'pre-instance', function: 'vkEnumerateInstanceLayerProperties', symbol: 'myEnum' },
    { role: 'extension-entrypoint', function: 'vkSetDebugUtilsObjectNameEXT', symbol: 'vkSetDebugUtilsObjectNameEXT' },
  ]);
});

test('an empty inspection: every symbol not looked up yet, not ok; errors name the layer, its manifest and library', () => {
  const symbols = layerSymbols({ functions: {}, preInstance: {}, entrypoints: [] });
  const e = emptyInspection({ name: 'VK_LAYER_x', manifest: '/l/x.json', kind: 'explicit', symbols, libraryPath: 'libx.so' });
  assert.deepEqual(
    e.symbols.map((s) => s.exported),
    [null, null, null],
  );
  assert.equal(e.ok, false);
  assert.equal(layerLabel('VK_LAYER_x', '/l/x.json'), 'VK_LAYER_x (x.json)');
  assert.equal(layerLabel(null, '/l/x.json'), 'x.json');
  const crash = layerProbeDiedError('crashed', 'VK_LAYER_x', '/l/x.json', 'libx.so', 'vkNegotiateLoaderLayerInterfaceVersion', 'SIGABRT');
  assert.equal(crash.code, 'layer/crashed');
  assert.equal(crash.message, 'Layer VK_LAYER_x (x.json) [libx.so] crashed the probe during vkNegotiateLoaderLayerInterfaceVersion: SIGABRT');
  assert.match(crash.fix ?? '', /disable_environment/);
  assert.equal(layerProbeDiedError('timeout', null, '/l/x.json', null, null, '5 s').message, 'Layer x.json did not return within 5 s');
});
