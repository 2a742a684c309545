import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strFromU8, unzipSync } from 'fflate';
import { bundleFiles, manifestEntryName, zipBundle } from '../../renderer/src/diagnostics/bundle';
import { filesIn, groupLog } from '../../renderer/src/diagnostics/log-groups';

const line = (seq: number, text: string, src?: 'loader', level?: 'warning' | 'error' | 'info') => ({
  kind: 'line' as const,
  seq,
  stream: 'stderr' as const,
  t: seq,
  wall: seq,
  text,
  ...(src ? { src } : {}),
  ...(level ? { level } : {}),
});

test('the loader log grouped by category: repeats folded, errors first, the files each message names pulled out', () => {
  const warn = "WARNING | LAYER:  Meta-layer VK_LAYER_LUNARG_override can't find component layer VK_LAYER_x at index 0.  Skipping this layer.";
  const { groups, dropped } = groupLog([
    line(1, 'INFO:             Vulkan Loader Version 1.3.239', 'loader', 'info'),
    line(2, warn, 'loader', 'warning'),
    line(3, 'LAYER:            Insert instance layer "VK_LAYER_x" (/home/u/.local/share/vulkan/explicit_layer.d/x.json)', 'loader'),
    line(4, warn, 'loader', 'warning'),
    line(5, 'ERROR | DRIVER:   Failed to find vkGetInstanceProcAddr in /usr/lib/libbad.so', 'loader', 'error'),
    line(6, 'app: frame 1'),
    line(7, warn, 'loader', 'warning'),
  ] as never[]);
  assert.equal(dropped, 0);
  assert.deepEqual(
    groups.map((g) => [g.category, g.entries.length, g.errors, g.warnings]),
    [
      ['DRIVER', 1, 1, 0],
      ['LAYER', 2, 0, 1],
      ['LOADER', 1, 0, 0],
      ['APPLICATION', 1, 0, 0],
    ],
  );
  const layer = groups.find((g) => g.category === 'LAYER')!;
  assert.deepEqual(
    layer.entries.map((e) => [e.level, e.count]),
    [
      ['warning', 3],
      [null, 1],
    ],
  );
  assert.deepEqual(layer.entries[1]!.files, ['/home/u/.local/share/vulkan/explicit_layer.d/x.json']);
  assert.deepEqual(
    filesIn('Found manifest file /usr/share/vulkan/icd.d/lvp_icd.x86_64.json, version "1.0.0" and /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so.1'),
    ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so.1'],
  );
  // Bounded: distinct lines past the limit are counted, not kept.
  assert.equal(groupLog(Array.from({ length: 30 }, (_, i) => line(i, `app line ${i}`)) as never[], 10).dropped, 20);
});

test('the bundle is a zip of plain files: every manifest byte for byte, the run, Strata’s files, and a README', () => {
  const text = '{ "file_format_version": "1.0.0" }\n';
  const files = bundleFiles({
    createdAt: '2026-11-25T10:00:00.000Z',
    versions: { name: 'Strata' },
    environment: { variables: [] },
    activity: { bindings: [] },
    manifests: {
      manifests: {
        driver: [{ path: '/usr/share/vulkan/icd.d/lvp.json', origin: 'XDG_DATA_DIRS', text }],
        implicit_layer: [{ path: '/etc/vulkan/../x.json', text: null }],
      },
    },
    chain: { chain: [] },
    devices: null,
    run: { command: 'vulkaninfo --summary', loaderDebug: 'error,warn', lines: ['a', 'b'], header: { id: 's1' } },
  });
  const back = unzipSync(zipBundle(files));
  assert.equal(strFromU8(back['manifests/driver/usr/share/vulkan/icd.d/lvp.json']!), text);
  assert.equal(strFromU8(back['run/output.log']!), 'a\nb\n');
  assert.match(strFromU8(back['manifests/index.tsv']!), /implicit_layer\t\/etc\/vulkan\/\.\.\/x\.json/);
  assert.ok(back['README.txt'] && back['strata-activity.json'] && back['versions.json'] && back['chain.json']);
  assert.equal(back['devices.json'], undefined, 'no devices answer, no file');
  assert.equal(manifestEntryName('driver', 'C:\\ProgramData\\x.json'), 'manifests/driver/ProgramData/x.json');
  assert.equal(manifestEntryName('driver', '/a/../../b.json'), 'manifests/driver/a/__/__/b.json', 'no entry climbs out of the bundle');
});
