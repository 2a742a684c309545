import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity, type Range } from 'vscode-languageserver-types';
import { layerSettingsFromManifest, manifestLayerNames, mayDescribeSettings } from '../../shared/settings/settings-schema';
import { flattenSettings, SETTING_TYPES, type LayerSettingsDescription, type SettingDescription } from '../../shared/settings/setting-types';
import { settingsDiagnosticCodes } from '../../shared/settings/settings-diagnostic-codes';
import { checkLayerValues, checkSettingValue, parseSettingText } from '../../shared/settings/setting-validation';
import { settingStates, withSettingValue } from '../../shared/settings/effective-settings';
import { seededRandom } from '../helpers/seeded-random';
import { APP_ROOT } from '../helpers/strata-cli';

const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const VALIDATION_TEXT = readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8');

function manifest(settings: unknown, extra: Record<string, unknown> = {}, fileFormatVersion = '1.2.0'): string {
  return JSON.stringify(
    {
      file_format_version: fileFormatVersion,
      layer: {
        name: 'VK_LAYER_test',
        type: 'GLOBAL',
        library_path: 'x.so',
        api_version: '1.3.0',
        implementation_version: '1',
        description: 'test',
        ...extra,
        features: { settings },
      },
    },
    null,
    2,
  );
}

const describe = (text: string): LayerSettingsDescription => {
  const d = layerSettingsFromManifest(text, 'VK_LAYER_test');
  assert.ok(d, 'the layer is found');
  return d;
};

/** The manifest text a diagnostic's range covers. */
const textAt = (text: string, range: Range) => {
  const offset = (p: Range['start']) => {
    let o = 0;
    for (let line = 0; line < p.line; line++) o = text.indexOf('\n', o) + 1;
    return o + p.character;
  };
  return text.slice(offset(range.start), offset(range.end));
};

test("Debian's validation layer manifest (1.2.0) parses with no diagnostic: 18 settings, 7 at the top, 6 presets", () => {
  const d = layerSettingsFromManifest(VALIDATION_TEXT, VALIDATION)!;
  assert.deepEqual(d.diagnostics, []);
  assert.equal(d.described, true);
  const all = flattenSettings(d.settings);
  assert.equal(all.length, 18);
  assert.equal(d.settings.length, 7);
  assert.deepEqual(
    d.presets.map((p) => p.label),
    ['Standard', 'Reduced-Overhead', 'Best Practices', 'Synchronization', 'GPU-Assisted', 'Debug Printf'],
  );
  assert.deepEqual(d.presets.find((p) => p.label === 'Debug Printf')?.values['enable_message_limit'], false);
  const byKey = (k: string) => d.byKey.get(k) as SettingDescription;
  // Nested under a flag, with its dependence resolved against the FLAGS setting.
  const log = byKey('log_filename');
  assert.equal(log.type, 'SAVE_FILE');
  assert.deepEqual(log.parent, { key: 'debug_action', flag: 'VK_DBG_LAYER_ACTION_LOG_MSG' });
  assert.deepEqual(log.dependence, { mode: 'ALL', conditions: [{ key: 'debug_action', value: ['VK_DBG_LAYER_ACTION_LOG_MSG'] }] });
  const limit = byKey('duplicate_message_limit');
  assert.ok(limit.type === 'INT' && limit.default === 10 && limit.min === 1 && limit.max === undefined);
  assert.equal(limit.env, 'VK_LAYER_DUPLICATE_MESSAGE_LIMIT');
  // Platforms: the setting's own, else inherited.
  assert.deepEqual(byKey('printf_verbose').platforms, ['WINDOWS', 'LINUX']);
  assert.deepEqual(byKey('report_flags').platforms, ['WINDOWS', 'LINUX', 'ANDROID', 'MACOS']);
  const action = byKey('debug_action');
  assert.ok(action.type === 'FLAGS');
  assert.equal(action.options.find((o) => o.key === 'VK_DBG_LAYER_ACTION_CALLBACK')?.view, 'HIDDEN');
  assert.deepEqual(action.options.find((o) => o.key === 'VK_DBG_LAYER_ACTION_DEBUG_OUTPUT')?.platforms, ['WINDOWS']);
  assert.deepEqual(manifestLayerNames(VALIDATION_TEXT), [VALIDATION]);
  assert.equal(layerSettingsFromManifest(VALIDATION_TEXT, 'VK_LAYER_other'), null);
});

test('every type of the schema is read, with ranges, units, choices, lists, frames and nested groups', () => {
  const text = manifest([
    { key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true },
    { key: 'i', label: 'I', description: 'd', type: 'INT', default: 5, range: { min: 1, max: 9 }, unit: 'frames' },
    { key: 'f', label: 'F', description: 'd', type: 'FLOAT', default: 0.5, range: { min: 0, max: 1, precision: 2, width: 4 } },
    { key: 's', label: 'S', description: 'd', type: 'STRING', default: 'x' },
    {
      key: 'e',
      label: 'E',
      description: 'd',
      type: 'ENUM',
      default: 'two',
      flags: [
        { key: 'one', label: 'One', description: '' },
        { key: 'two', label: 'Two', description: '' },
      ],
    },
    {
      key: 'fl',
      label: 'Fl',
      description: 'd',
      type: 'FLAGS',
      default: ['a'],
      flags: [
        { key: 'a', label: 'A', description: '' },
        { key: 'b', label: 'B', description: '' },
      ],
    },
    { key: 'file', label: 'File', description: 'd', type: 'FILE', default: '' },
    { key: 'sf', label: 'SF', description: 'd', type: 'SAVE_FILE', default: 'out.txt', filter: '*.txt' },
    { key: 'lf', label: 'LF', description: 'd', type: 'LOAD_FILE', default: '' },
    { key: 'dir', label: 'Dir', description: 'd', type: 'FOLDER', default: '/tmp' },
    { key: 'ld', label: 'LD', description: 'd', type: 'LOAD_FOLDER', default: '' },
    { key: 'sd', label: 'SD', description: 'd', type: 'SAVE_FOLDER', default: '' },
    { key: 'l', label: 'L', description: 'd', type: 'LIST', list: ['x', 7], default: [{ key: 'x', enabled: true }, { key: 'y', enabled: false }, 3] },
    { key: 'fr', label: 'Fr', description: 'd', type: 'FRAMES', default: '0-5,10-100-10' },
    {
      key: 'g',
      label: 'G',
      description: 'd',
      type: 'GROUP',
      settings: [{ key: 'inner', label: 'Inner', description: 'd', type: 'BOOL', default: false, platforms: ['LINUX'], status: 'BETA' }],
    },
  ]);
  const d = describe(text);
  assert.deepEqual(d.diagnostics, []);
  const all = flattenSettings(d.settings);
  assert.deepEqual(new Set(all.map((s) => s.type)), new Set(SETTING_TYPES));
  const get = <T extends SettingDescription['type']>(k: string, type: T) => {
    const s = d.byKey.get(k);
    assert.equal(s?.type, type);
    return s as Extract<SettingDescription, { type: T }>;
  };
  assert.deepEqual([get('i', 'INT').min, get('i', 'INT').max, get('i', 'INT').unit], [1, 9, 'frames']);
  assert.deepEqual([get('f', 'FLOAT').precision, get('f', 'FLOAT').width], [2, 4]);
  assert.equal((d.byKey.get('sf') as { type: string; filter?: string }).filter, '*.txt');
  assert.deepEqual(get('l', 'LIST').default, ['x', '3']);
  assert.deepEqual(get('l', 'LIST').list, ['x', '7']);
  const inner = get('inner', 'BOOL');
  assert.deepEqual([inner.parent, inner.platforms, inner.status], [{ key: 'g' }, ['LINUX'], 'BETA']);
});

test('malformed descriptions give diagnostics with the range of the offending JSON, never an exception', () => {
  const cases: { settings: unknown; code: string; at: string; severity: DiagnosticSeverity; kept: string[] }[] = [
    {
      settings: [{ key: 'a', label: 'A', description: 'd', type: 'BOLL', default: true }],
      code: 'settings/unknown-type',
      at: '"BOLL"',
      severity: DiagnosticSeverity.Error,
      kept: [],
    },
    {
      settings: [{ label: 'A', description: 'd', type: 'BOOL', default: true }],
      code: 'settings/missing-field',
      at: '{',
      severity: DiagnosticSeverity.Error,
      kept: [],
    },
    {
      settings: [{ key: 'a', label: 'A', description: 'd', default: true }],
      code: 'settings/missing-field',
      at: '{',
      severity: DiagnosticSeverity.Error,
      kept: [],
    },
    {
      settings: [42, { key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true }],
      code: 'settings/malformed',
      at: '42',
      severity: DiagnosticSeverity.Error,
      kept: ['b'],
    },
    { settings: { key: 'a' }, code: 'settings/malformed', at: '{', severity: DiagnosticSeverity.Error, kept: [] },
    {
      settings: [
        { key: 'a', label: 'A', description: 'd', type: 'BOOL', default: true },
        { key: 'a', label: 'A2', description: 'd', type: 'INT', default: 1 },
      ],
      code: 'settings/duplicate-key',
      at: '"a"',
      severity: DiagnosticSeverity.Error,
      kept: ['a'],
    },
    {
      settings: [{ key: 'e', label: 'E', description: 'd', type: 'ENUM', default: 'x', flags: [] }],
      code: 'settings/no-options',
      at: '[]',
      severity: DiagnosticSeverity.Error,
      kept: [],
    },
    {
      settings: [{ key: 'i', label: 'I', description: 'd', type: 'INT', default: 50, range: { min: 1, max: 9 } }],
      code: 'settings/invalid-default',
      at: '50',
      severity: DiagnosticSeverity.Warning,
      kept: ['i'],
    },
    {
      settings: [{ key: 'i', label: 'I', description: 'd', type: 'INT', default: 'ten' }],
      code: 'settings/invalid-default',
      at: '"ten"',
      severity: DiagnosticSeverity.Warning,
      kept: ['i'],
    },
    {
      settings: [{ key: 'i', label: 'I', description: 'd', type: 'INT', default: 5, range: { min: 9, max: 1 } }],
      code: 'settings/invalid-range',
      at: '{',
      severity: DiagnosticSeverity.Warning,
      kept: ['i'],
    },
    {
      settings: [{ key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true, platforms: ['LINUX', 'BEOS'] }],
      code: 'settings/unknown-token',
      at: '"BEOS"',
      severity: DiagnosticSeverity.Warning,
      kept: ['b'],
    },
    {
      settings: [{ key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true, status: 'GOLD' }],
      code: 'settings/unknown-token',
      at: '"GOLD"',
      severity: DiagnosticSeverity.Warning,
      kept: ['b'],
    },
    { settings: [{ key: 'b', type: 'BOOL', default: true }], code: 'settings/missing-label', at: '{', severity: DiagnosticSeverity.Warning, kept: ['b'] },
    {
      settings: [{ key: 'b', label: 7, description: 'd', type: 'BOOL', default: true }],
      code: 'settings/wrong-type',
      at: '7',
      severity: DiagnosticSeverity.Warning,
      kept: ['b'],
    },
    {
      settings: [
        { key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true, dependence: { mode: 'ALL', settings: [{ key: 'nope', value: true }] } },
      ],
      code: 'settings/unknown-dependence',
      at: '"nope"',
      severity: DiagnosticSeverity.Warning,
      kept: ['b'],
    },
    {
      settings: [{ key: 'fr', label: 'Fr', description: 'd', type: 'FRAMES', default: 'every other' }],
      code: 'settings/invalid-default',
      at: '"every other"',
      severity: DiagnosticSeverity.Warning,
      kept: ['fr'],
    },
    {
      settings: [{ key: 'fl', label: 'Fl', description: 'd', type: 'FLAGS', default: ['z'], flags: [{ key: 'a', label: 'A', description: '' }] }],
      code: 'settings/invalid-default',
      at: '[',
      severity: DiagnosticSeverity.Warning,
      kept: ['fl'],
    },
  ];
  for (const c of cases) {
    const text = manifest(c.settings);
    const d = describe(text);
    const found = d.diagnostics.find((x) => x.code === c.code);
    assert.ok(found, `${c.code} for ${JSON.stringify(c.settings)}; got ${JSON.stringify(d.diagnostics.map((x) => x.code))}`);
    assert.equal(found.severity, c.severity, c.code);
    assert.ok(
      textAt(text, found.range).startsWith(c.at),
      `${c.code}: range covers ${JSON.stringify(textAt(text, found.range).slice(0, 30))}, expected ${c.at}`,
    );
    assert.deepEqual(
      flattenSettings(d.settings).map((s) => s.key),
      c.kept,
      c.code,
    );
    assert.equal((found.data as { spec?: string }).spec !== undefined, true);
  }
  // A preset naming an unknown key, and settings in a file that predates 1.2.0.
  const preset = JSON.parse(manifest([{ key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true }]));
  preset.layer.features.presets = [
    {
      label: 'P',
      description: '',
      settings: [
        { key: 'x', value: 1 },
        { key: 'b', value: false },
      ],
    },
  ];
  const pd = describe(JSON.stringify(preset));
  assert.deepEqual(
    pd.diagnostics.map((x) => x.code),
    ['settings/unknown-preset-key'],
  );
  assert.deepEqual(pd.presets[0]?.values, { b: false });
  assert.deepEqual(
    describe(manifest([{ key: 'b', label: 'B', description: 'd', type: 'BOOL', default: true }], {}, '1.1.2')).diagnostics.map((x) => x.code),
    ['settings/old-file-format'],
  );
});

test('mayDescribeSettings: false only for texts whose parse has no setting (the Settings view skips those)', () => {
  const layer = (extra: string) => `{"file_format_version": "1.2.0", "layer": {"name": "VK_LAYER_x", "type": "GLOBAL"${extra}}}`;
  const one = ', "features": {"settings": [{"key": "k", "label": "K", "description": "d", "type": "BOOL", "default": true}]}';
  const cases = [
    layer(''),
    layer(one),
    layer(one.replace('"settings"', '"setting\\u0073"')),
    layer(one.replace('"settings"', '"\\u0073ettings"')),
    layer(', "settings": [{"key": "k", "label": "K", "description": "d", "type": "BOOL", "default": true}]'),
    layer(', "description": "no settings here"'),
    VALIDATION_TEXT,
  ];
  for (const text of cases) {
    const described = flattenSettings(layerSettingsFromManifest(text, text === VALIDATION_TEXT ? VALIDATION : 'VK_LAYER_x')?.settings ?? []).length;
    if (!mayDescribeSettings(text)) assert.equal(described, 0, text);
  }
  assert.equal(mayDescribeSettings(layer('')), false);
  assert.equal(mayDescribeSettings(layer(one.replace('"settings"', '"\\u0073ettings"'))), true);
  assert.equal(flattenSettings(layerSettingsFromManifest(layer(one.replace('"settings"', '"\\u0073ettings"')), 'VK_LAYER_x')!.settings).length, 1);
  assert.equal(mayDescribeSettings(VALIDATION_TEXT), true);
});

test('mangled copies of the real manifest never throw (seeded)', () => {
  const random = seededRandom(7);
  const pieces = [
    '"type": "INT"',
    '"default": null',
    '[]',
    '{}',
    '"flags": 3',
    '"settings": "x"',
    '"range": {"min": 5, "max": 1}',
    '"platforms": [1]',
    '"dependence": []',
  ];
  for (let i = 0; i < 30; i++) {
    let text = VALIDATION_TEXT;
    for (let k = 0; k < 3; k++) {
      const at = Math.floor(random() * text.length);
      const cut = Math.floor(random() * 40);
      text = text.slice(0, at) + (random() < 0.5 ? (pieces[Math.floor(random() * pieces.length)] as string) : '') + text.slice(at + cut);
    }
    try {
      layerSettingsFromManifest(text, VALIDATION);
    } catch (e) {
      assert.fail(`iteration ${i} threw ${(e as Error).message}`);
    }
  }
});

test('value checks say what is wrong in words; text input is read per type', () => {
  const d = layerSettingsFromManifest(VALIDATION_TEXT, VALIDATION)!;
  const s = (k: string) => d.byKey.get(k) as SettingDescription;
  assert.equal(checkSettingValue(s('duplicate_message_limit'), 0), 'Must be at least 1');
  assert.equal(checkSettingValue(s('duplicate_message_limit'), 2.5), 'Must be a whole number');
  assert.equal(checkSettingValue(s('enable_message_limit'), 'yes'), 'Must be true or false');
  assert.match(checkSettingValue(s('report_flags'), ['error', 'loud']) ?? '', /"loud" is not one of the values: info, warn, perf, error, debug/);
  assert.match(checkSettingValue(s('message_id_filter'), ['a,b']) ?? '', /contains a comma/);
  assert.match(checkSettingValue(s('log_filename'), 'a\nb') ?? '', /line break/);
  assert.equal(checkSettingValue(s('log_filename'), '/tmp/x.txt'), null);
  assert.deepEqual(parseSettingText(s('report_flags'), 'error, warn'), { value: ['error', 'warn'] });
  assert.deepEqual(parseSettingText(s('enable_message_limit'), 'off'), { value: false });
  assert.deepEqual(parseSettingText(s('duplicate_message_limit'), '1e3'), { error: '"1e3" is not a whole number' });
  assert.deepEqual(
    checkLayerValues(d, { log_filenam: 'x', duplicate_message_limit: 0 }).map((p) => p.message),
    [`${VALIDATION} has no setting "log_filenam" (did you mean "log_filename"?)`, 'Max Duplicated Messages (duplicate_message_limit): must be at least 1'],
  );
});

test('only values different from the default are stored; dependence is transitive and says why a setting is disabled', () => {
  const d = layerSettingsFromManifest(VALIDATION_TEXT, VALIDATION)!;
  let v = withSettingValue(d, {}, 'report_flags', ['warn', 'error']);
  assert.deepEqual(v, { report_flags: ['warn', 'error'] });
  v = withSettingValue(d, v, 'report_flags', ['error']);
  assert.deepEqual(v, {}, 'typing the default back in stores nothing');
  v = withSettingValue(d, { disables: [] }, 'disables', undefined);
  assert.deepEqual(v, {}, 'reset to default');
  const states = new Map(settingStates(d, { debug_action: ['VK_DBG_LAYER_ACTION_BREAK'] }, 'LINUX').map((s) => [s.setting.key, s]));
  assert.deepEqual(states.get('log_filename')?.dependence, { enabled: false, reason: 'Needs Debug Action to include Log Message' });
  assert.equal(states.get('warn_on_robust_oob')?.dependence.enabled, false, 'its dependee gpuav_buffer_oob is itself disabled');
  assert.equal(states.get('debug_action')?.changed, true);
  const linux = settingStates(d, {}, 'MACOS')
    .filter((s) => !s.available)
    .map((s) => s.setting.key);
  assert.ok(linux.includes('printf_verbose'));
});

test('docs/settings.md has one row per settings diagnostic code, with its severity', () => {
  const doc = readFileSync(join(APP_ROOT, 'docs', 'settings.md'), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `(settings\/[a-z-]+)` +\| (\w+)/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual([...rows.keys()].sort(), Object.keys(settingsDiagnosticCodes).sort());
  for (const [code, info] of Object.entries(settingsDiagnosticCodes))
    assert.equal(rows.get(code), info.severity === DiagnosticSeverity.Error ? 'error' : 'warning', code);
});
