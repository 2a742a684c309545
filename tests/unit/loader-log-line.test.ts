import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkLoaderDebugLevel, loaderLogColumn, parseLoaderLogLine } from '../../shared/sessions/loader-log-line';

// Lines as each loader of the matrix prints them with VK_LOADER_DEBUG=all (captured from real builds).
const CASES: [string, string, { level: string | null; categories: string[]; message: string }][] = [
  ['1.3.239', 'INFO:             Vulkan Loader Version 1.3.239', { level: 'info', categories: [], message: 'Vulkan Loader Version 1.3.239' }],
  ['1.3.239', 'LAYER:               In following locations:', { level: null, categories: ['layer'], message: '   In following locations:' }],
  ['1.3.275', 'INFO:              Vulkan Loader Version 1.3.275', { level: 'info', categories: [], message: 'Vulkan Loader Version 1.3.275' }],
  [
    '1.3.275',
    'LAYER:             Searching for implicit layer manifest files',
    { level: null, categories: ['layer'], message: 'Searching for implicit layer manifest files' },
  ],
  ['1.3.275', 'LAYER:                In following locations:', { level: null, categories: ['layer'], message: '   In following locations:' }],
  ['1.4.309', '[Vulkan Loader] INFO:           Vulkan Loader Version 1.4.309', { level: 'info', categories: [], message: 'Vulkan Loader Version 1.4.309' }],
  ['1.4.359', '[Vulkan Loader] LAYER:             In following locations:', { level: null, categories: ['layer'], message: '   In following locations:' }],
  [
    '1.4.359',
    '[Vulkan Loader] DEBUG | DRIVER: Searching for ICD drivers named /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so',
    { level: 'debug', categories: ['driver'], message: 'Searching for ICD drivers named /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so' },
  ],
  [
    '1.4.359',
    '[Vulkan Loader] WARNING | LAYER: Layer "VK_LAYER_x" forced disabled because name matches filter of env var \'VK_LOADER_LAYERS_DISABLE\'.',
    {
      level: 'warning',
      categories: ['layer'],
      message: 'Layer "VK_LAYER_x" forced disabled because name matches filter of env var \'VK_LOADER_LAYERS_DISABLE\'.',
    },
  ],
];

test('every loader of the matrix: level, categories and message (indentation kept), with the version known', () => {
  for (const [version, line, want] of CASES) assert.deepEqual(parseLoaderLogLine(line, loaderLogColumn(version)), want, `${version}: ${line}`);
});

test('without the version: the prefix is recognised, and 1.3.251+ lines without it still read their unindented messages exactly', () => {
  for (const [version, line, want] of CASES) {
    const got = parseLoaderLogLine(line);
    assert.equal(got?.level, want.level, line);
    assert.deepEqual(got?.categories, want.categories, line);
    if (!want.message.startsWith(' ')) assert.equal(got?.message, want.message, `${version}: ${line}`);
  }
  assert.equal(parseLoaderLogLine('[Vulkan Loader] not a loader line'), null);
  assert.equal(loaderLogColumn('1.3.239'), 18);
  assert.equal(loaderLogColumn('1.4.359'), 19);
});

// Debian's loader 1.3.239 (captured under lavapipe).
const LOADER = [
  'INFO:             Vulkan Loader Version 1.3.239',
  'LAYER:               In following locations:',
  'DEBUG | DRIVER:   Searching for ICD drivers named /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so',
  'DRIVER | LAYER:      <Application>',
  'WARNING:          env var \'VK_INSTANCE_LAYERS\' defined and adding layers "VK_LAYER_nope"',
  'ERROR | LAYER:    Requested layer "VK_LAYER_nope" failed to load!',
];

test('loader debug lines: level, categories and message, indentation of the message kept', () => {
  assert.deepEqual(parseLoaderLogLine(LOADER[0]!), { level: 'info', categories: [], message: 'Vulkan Loader Version 1.3.239' });
  assert.deepEqual(parseLoaderLogLine(LOADER[1]!), { level: null, categories: ['layer'], message: '   In following locations:' });
  assert.deepEqual(parseLoaderLogLine(LOADER[2]!), {
    level: 'debug',
    categories: ['driver'],
    message: 'Searching for ICD drivers named /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so',
  });
  assert.deepEqual(parseLoaderLogLine(LOADER[3]!), { level: null, categories: ['driver', 'layer'], message: '   <Application>' });
  assert.equal(parseLoaderLogLine(LOADER[4]!)?.level, 'warning');
  assert.deepEqual(parseLoaderLogLine(LOADER[5]!), { level: 'error', categories: ['layer'], message: 'Requested layer "VK_LAYER_nope" failed to load!' });
  for (const other of ['', 'app: start', 'INFO without a colon', 'Layers: 3', 'ERRORS: 2', 'INFO:x'])
    assert.equal(parseLoaderLogLine(other), null, JSON.stringify(other));
});

test('VK_LOADER_DEBUG levels: known words normalized, unknown ones named', () => {
  assert.deepEqual(checkLoaderDebugLevel('Error, warn,warn,layer'), { ok: true, value: 'error,warn,layer' });
  assert.deepEqual(checkLoaderDebugLevel('all'), { ok: true, value: 'all' });
  assert.deepEqual(checkLoaderDebugLevel('errors,info'), { ok: false, unknown: ['errors'] });
  assert.equal(checkLoaderDebugLevel(' , ').ok, false);
});
