import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { layerSettingsFromManifest, undescribedLayer } from '../../shared/settings/settings-schema';
import {
  EXPORT_FORMATS,
  exportLayerSettings,
  settingPrefix,
  settingsEnvironment,
  settingsFileLines,
  settingsFileText,
  type LayerSettingsInput,
} from '../../shared/settings/settings-output';

const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const description = layerSettingsFromManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'), VALIDATION)!;
const validation = (values: LayerSettingsInput['values']): LayerSettingsInput => ({ description, values });
const linux = { platform: 'LINUX' as const };

const work = mkdtempSync(join(tmpdir(), 'strata-settings-output-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('the prefix is the layer name without VK_LAYER_, lower-cased, as the layers read it', () => {
  assert.equal(settingPrefix(VALIDATION), 'khronos_validation');
  assert.equal(settingPrefix('VK_LAYER_LUNARG_api_dump'), 'lunarg_api_dump');
  assert.equal(settingPrefix('my_layer'), 'my_layer');
});

test('vk_layer_settings.txt: nothing for a layer left at its defaults; otherwise every enabled setting of this platform, lists comma-separated', () => {
  assert.deepEqual(settingsFileLines(validation({}), linux), []);
  assert.equal(settingsFileText([validation({})], linux), '');
  const lines = settingsFileLines(
    validation({ report_flags: ['error', 'warn'], debug_action: ['VK_DBG_LAYER_ACTION_BREAK'], duplicate_message_limit: 3 }),
    linux,
  );
  assert.deepEqual(lines, [
    'khronos_validation.debug_action = VK_DBG_LAYER_ACTION_BREAK',
    // log_filename is left out: it needs debug_action to include LOG_MSG.
    'khronos_validation.report_flags = error,warn',
    'khronos_validation.enable_message_limit = true',
    'khronos_validation.duplicate_message_limit = 3',
    'khronos_validation.message_id_filter = ',
    'khronos_validation.disables = VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT',
    'khronos_validation.enables = ',
    'khronos_validation.fine_grained_locking = true',
  ]);
  // Debug printf's settings exist on Linux and Windows only, and need the printf feature.
  const printf = settingsFileLines(validation({ enables: ['VK_VALIDATION_FEATURE_ENABLE_DEBUG_PRINTF_EXT'] }), linux);
  assert.ok(printf.includes('khronos_validation.printf_buffer_size = 1024'));
  assert.ok(
    !settingsFileLines(validation({ enables: ['VK_VALIDATION_FEATURE_ENABLE_DEBUG_PRINTF_EXT'] }), { platform: 'MACOS' }).some((l) => l.includes('printf_')),
  );
  const text = settingsFileText(
    [validation({ duplicate_message_limit: 3 }), { description: undescribedLayer('VK_LAYER_MESA_overlay'), values: { position: 'top-left' } }],
    linux,
  );
  assert.match(text, /^# VK_LAYER_KHRONOS_validation\n# Debug Action \(default\)\nkhronos_validation\.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG$/m);
  assert.match(text, /^# Max Duplicated Messages\nkhronos_validation\.duplicate_message_limit = 3$/m);
  assert.match(text, /^mesa_overlay\.position = top-left$/m);
  assert.equal(
    settingsFileText([validation({ duplicate_message_limit: 3 })], linux),
    settingsFileText([validation({ duplicate_message_limit: 3 })], linux),
    'stable bytes',
  );
});

test('environment variables: the names the manifest gives, lists joined with ":" (";" on Windows)', () => {
  const vars = settingsEnvironment(validation({ message_id_filter: ['VUID-a', 'VUID-b'] }), linux);
  assert.deepEqual(
    vars.map((v) => `${v.name}=${v.value}`),
    [
      'VK_LAYER_DUPLICATE_MESSAGE_LIMIT=10',
      'VK_LAYER_MESSAGE_ID_FILTER=VUID-a:VUID-b',
      'VK_LAYER_DISABLES=VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT',
      'VK_LAYER_ENABLES=',
      'VK_LAYER_FINE_GRAINED_LOCKING=true',
    ],
  );
  assert.equal(
    settingsEnvironment(validation({ message_id_filter: ['a', 'b'] }), { platform: 'WINDOWS' }).find((v) => v.key === 'message_id_filter')?.value,
    'a;b',
  );
});

test("bash: sourcing the script in a real shell sets each variable to the layer's value, quotes and all", () => {
  const tricky = 'VUID-it\'s "odd" $HOME `x`';
  const e = exportLayerSettings(validation({ message_id_filter: [tricky, 'VUID-b'] }), 'bash', linux);
  assert.equal(e.fileName, 'khronos_validation_settings.sh');
  const file = join(work, e.fileName);
  writeFileSync(file, e.text);
  const out = execFileSync('sh', ['-c', `. "${file}" && printf '%s|%s' "$VK_LAYER_MESSAGE_ID_FILTER" "$VK_LAYER_DUPLICATE_MESSAGE_LIMIT"`], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], HOME: work },
  });
  assert.equal(out, `${tricky}:VUID-b|10`);
  assert.match(e.text, /^#   khronos_validation\.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG$/m, 'settings without a variable are listed for the settings file');
});

test('cmd: set "NAME=value" lines, CRLF, % doubled, ";" between list items', () => {
  const e = exportLayerSettings(validation({ message_id_filter: ['100%', 'b'] }), 'cmd', linux);
  assert.equal(e.fileName, 'khronos_validation_settings.bat');
  assert.ok(e.text.startsWith('@echo off\r\n'));
  assert.ok(!/[^\r]\n/.test(e.text), 'every line ends in CRLF');
  assert.match(e.text, /^set "VK_LAYER_MESSAGE_ID_FILTER=100%%;b"\r$/m);
});

function compileHeader(name: string, text: string, use: string): void {
  const header = join(work, `${name}.hpp`);
  writeFileSync(header, text);
  const source = join(work, `${name}.cpp`);
  writeFileSync(source, `#include "${header}"\nint main() {\n${use}\n  return 0;\n}\n`);
  // -fsyntax-only against Debian's /usr/include/vulkan (1.3.239 headers, which predate VK_EXT_layer_settings).
  execFileSync('g++', ['-std=c++17', '-fsyntax-only', '-Wall', '-Wextra', '-Werror', source], { stdio: 'pipe' });
}

test('hpp: a VkLayerSettingEXT array with the right VkLayerSettingTypeEXT per setting that g++ accepts against /usr/include/vulkan', () => {
  const e = exportLayerSettings(validation({ log_filename: 'C:\\logs\\"vvl".txt', duplicate_message_limit: 3, report_flags: ['error', 'warn'] }), 'hpp', linux);
  assert.equal(e.fileName, 'khronos_validation_settings.hpp');
  assert.match(e.text, /\{layer_name, "duplicate_message_limit", VK_LAYER_SETTING_TYPE_INT32_EXT, 1, duplicate_message_limit_values\}/);
  assert.match(e.text, /\{layer_name, "enable_message_limit", VK_LAYER_SETTING_TYPE_BOOL32_EXT, 1, enable_message_limit_values\}/);
  assert.match(e.text, /\{layer_name, "report_flags", VK_LAYER_SETTING_TYPE_STRING_EXT, 2, report_flags_values\}/);
  assert.match(e.text, /\{layer_name, "message_id_filter", VK_LAYER_SETTING_TYPE_STRING_EXT, 0, nullptr\}/);
  assert.match(e.text, /log_filename_values\[\] = \{"C:\\\\logs\\\\\\"vvl\\".txt"\}/);
  compileHeader(
    'validation',
    e.text,
    '  VkLayerSettingsCreateInfoEXT info = strata_layer_settings::khronos_validation::create_info();\n  VkInstanceCreateInfo ci = {};\n  ci.pNext = &info;\n  (void)ci;',
  );
  const free = exportLayerSettings(
    { description: undescribedLayer('VK_LAYER_test_free'), values: { on: true, count: 5, big: 5_000_000_000, ratio: 0.25, name: 'x', items: ['a', 'b'] } },
    'hpp',
    linux,
  );
  for (const t of ['BOOL32', 'INT32', 'INT64', 'FLOAT32', 'STRING']) assert.match(free.text, new RegExp(`VK_LAYER_SETTING_TYPE_${t}_EXT, \\d`), t);
  compileHeader('free', free.text, '  return (int)strata_layer_settings::test_free::setting_count - 6;');
  const none = exportLayerSettings({ description: undescribedLayer('VK_LAYER_empty'), values: {} }, 'hpp', linux);
  compileHeader('none', none.text, '  (void)strata_layer_settings::empty::create_info();');
});

test('html and md: documentation of every setting from the manifest, escaped, with the exported value where it differs', () => {
  const html = exportLayerSettings(validation({ log_filename: '<b>&x' }), 'html', linux).text;
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  for (const s of description.byKey.values()) assert.ok(html.includes(`id="${s.key}"`), s.key);
  assert.ok(html.includes('<code>&lt;b&gt;&amp;x</code>') && !html.includes('<b>&x'));
  assert.match(html, /<th scope="row">Environment variable<\/th><td><code>VK_LAYER_MESSAGE_ID_FILTER<\/code>/);
  const md = exportLayerSettings(validation({ duplicate_message_limit: 3 }), 'md', linux).text;
  assert.ok(md.startsWith('# VK_LAYER_KHRONOS_validation settings\n'));
  for (const s of description.byKey.values()) assert.ok(md.includes(`\`khronos_validation.${s.key}\``), s.key);
  assert.match(md, /^\| Value in this export \| `3` \|$/m);
  assert.match(md, /^#### Log Filename$/m, 'nested settings one heading level down');
  assert.deepEqual(
    EXPORT_FORMATS.map((f) => exportLayerSettings(validation({}), f, linux).text.length > 0),
    EXPORT_FORMATS.map(() => true),
  );
});
