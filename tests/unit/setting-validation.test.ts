import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkLayerValues, checkSettingValue, closestKey, FRAMES_PATTERN, parseSettingText, sameSettingValue } from '../../shared/settings/setting-validation';
import { layerSettingsFromManifest, undescribedLayer } from '../../shared/settings/settings-schema';
import type { SettingDescription } from '../../shared/settings/setting-types';

// shared/settings/setting-validation.ts on Debian's validation layer manifest (file_format_version 1.2.0).
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const d = layerSettingsFromManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'), VALIDATION)!;
const s = (key: string) => d.byKey.get(key) as SettingDescription;

test('ranges and kinds: INT min/max, whole numbers, finite numbers, booleans', () => {
  assert.equal(checkSettingValue(s('printf_buffer_size'), 128), null);
  assert.equal(checkSettingValue(s('printf_buffer_size'), 127), 'Must be at least 128 bytes', 'with the unit');
  assert.equal(checkSettingValue(s('printf_buffer_size'), 1048577), 'Must be at most 1048576 bytes');
  assert.equal(checkSettingValue(s('printf_buffer_size'), Number.NaN), 'Must be a whole number');
  assert.equal(checkSettingValue(s('printf_buffer_size'), '5'), 'Must be a whole number');
  assert.equal(checkSettingValue(s('enable_message_limit'), 1), 'Must be true or false');
});

test('lists: unknown flags, commas, empty and repeated items, line breaks', () => {
  assert.equal(checkSettingValue(s('report_flags'), ['error', 'warn']), null);
  assert.match(checkSettingValue(s('report_flags'), 'error') ?? '', /list of the listed values/);
  assert.equal(checkSettingValue(s('report_flags'), ['error', 'error']), '"error" is listed twice');
  assert.match(checkSettingValue(s('message_id_filter'), ['a,b']) ?? '', /contains a comma/);
  assert.equal(checkSettingValue(s('message_id_filter'), [' ']), 'A list item cannot be empty');
  assert.match(checkSettingValue(s('message_id_filter'), ['a\nb']) ?? '', /line break/);
  assert.match(checkSettingValue(s('log_filename'), 'x\ry') ?? '', /one setting per line/);
  assert.equal(checkSettingValue(s('log_filename'), 'stderr'), null);
});

test('FRAMES: N, N-M, N-M-STEP lists (vkconfig layers_schema.json)', () => {
  for (const ok of ['0', '0-5', '10-100-10', '0-5,10', '']) assert.ok(ok === '' || FRAMES_PATTERN.test(ok), ok);
  for (const bad of ['0-5-1-2', 'a', '1,,2', '-1', '1 ,2']) assert.ok(!FRAMES_PATTERN.test(bad), bad);
  const frames = { ...s('log_filename'), type: 'FRAMES' } as unknown as SettingDescription;
  assert.equal(checkSettingValue(frames, ''), null);
  assert.match(checkSettingValue(frames, '1..3') ?? '', /is not a frame list/);
});

test('parseSettingText reads typed text per type', () => {
  assert.deepEqual(parseSettingText(s('enable_message_limit'), ' YES '), { value: true });
  assert.deepEqual(parseSettingText(s('enable_message_limit'), '0'), { value: false });
  assert.deepEqual(parseSettingText(s('enable_message_limit'), 'maybe'), { error: '"maybe" is not true or false' });
  assert.deepEqual(parseSettingText(s('duplicate_message_limit'), '+12'), { value: 12 });
  assert.deepEqual(parseSettingText(s('duplicate_message_limit'), '1.5'), { error: '"1.5" is not a whole number' });
  assert.deepEqual(parseSettingText(s('report_flags'), ' error , ,warn '), { value: ['error', 'warn'] });
  assert.deepEqual(parseSettingText(s('report_flags'), '  '), { value: [] });
  assert.deepEqual(parseSettingText(s('log_filename'), ' out.txt '), { value: ' out.txt ' }, 'text is kept as typed');
});

test('sameSettingValue: FLAGS as sets, LIST in order', () => {
  assert.equal(sameSettingValue(s('report_flags'), ['error', 'warn'], ['warn', 'error']), true);
  assert.equal(sameSettingValue(s('message_id_filter'), ['a', 'b'], ['b', 'a']), false);
  assert.equal(sameSettingValue(s('report_flags'), ['error'], ['error', 'warn']), false);
  assert.equal(sameSettingValue(undefined, 1, 1), true);
});

test('closestKey and checkLayerValues: unknown keys with a suggestion; free-form keys for an undescribed layer', () => {
  assert.equal(closestKey('log_filenam', ['log_filename', 'report_flags']), 'log_filename');
  assert.equal(closestKey('zzz', ['log_filename']), undefined);
  assert.deepEqual(checkLayerValues(d, { report_flag: ['error'], duplicate_message_limit: 0, enable_message_limit: true }), [
    { key: 'report_flag', message: `${VALIDATION} has no setting "report_flag" (did you mean "report_flags"?)` },
    { key: 'duplicate_message_limit', message: 'Max Duplicated Messages (duplicate_message_limit): must be at least 1' },
  ]);
  const free = undescribedLayer('VK_LAYER_x');
  assert.deepEqual(checkLayerValues(free, { 'ok.key-1': 'v' }), []);
  assert.deepEqual(
    checkLayerValues(free, { 'bad key': 'v', k: ['a\nb'] }).map((p) => p.key),
    ['bad key', 'k'],
  );
});
