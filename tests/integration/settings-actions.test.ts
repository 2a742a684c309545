import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { applySetOptions, formatSettingsShow, settingsShowJson } from '../../main/hosts/cli/settings-actions';
import { CliFailure, EXIT } from '../../main/hosts/cli/cli-output';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import { findLayerDescription, type DescribedLayer } from '../../shared/settings/layer-lookup';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/settings-actions.ts over the settings description of the validation layer Debian
 * installs (VkLayer_khronos_validation.json, file_format_version 1.2.0): `--set KEY=VALUE` checked
 * against each setting's type and range (with the layer's prefix or without, later ones winning),
 * every refusal a usage error that says what to give; `settings show` as a table and as JSON.
 * The commands as a user runs them: tests/integration/settings-command.test.ts.
 */
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
let home: TempHome;
let layer: DescribedLayer;

before(async () => {
  if (!existsSync(MANIFEST)) throw new Error(`${MANIFEST} is not installed (vulkan-validationlayers): this suite cannot run`);
  home = makeTempHome();
  const found = findLayerDescription(await discoveryManifests({ env: home.env, libraries: false }), VALIDATION);
  assert.ok(found, `discovery did not find ${VALIDATION}`);
  layer = found;
});
after(() => home?.cleanup());

function usage(item: string, message: RegExp, fix: RegExp) {
  return (e: unknown) => {
    assert.ok(e instanceof CliFailure, String(e));
    assert.equal(e.exitCode, EXIT.usage);
    assert.equal(e.error.code, 'settings/usage');
    assert.match(e.error.message, message, item);
    assert.match(e.error.fix ?? '', fix, item);
    return true;
  };
}

test('--set: typed values, with or without the layer prefix, in order (the last wins), on top of the base', () => {
  const values = applySetOptions(layer.description, { enable_message_limit: false }, [
    'khronos_validation.duplicate_message_limit=5',
    'report_flags=error,warn',
    'duplicate_message_limit=7',
  ]);
  assert.deepEqual(values, { enable_message_limit: false, duplicate_message_limit: 7, report_flags: ['error', 'warn'] });
});

test('--set refusals: not KEY=VALUE, an unknown key (with the nearest), a value out of range or of the wrong type', () => {
  const d = layer.description;
  assert.throws(() => applySetOptions(d, {}, ['novalue']), usage('novalue', /"novalue" is not KEY=VALUE/, /write --set key=value/));
  assert.throws(
    () => applySetOptions(d, {}, ['duplicate_mesage_limit=3']),
    usage('typo', /VK_LAYER_KHRONOS_validation has no setting "duplicate_mesage_limit"/, /^did you mean duplicate_message_limit\? /),
  );
  assert.throws(() => applySetOptions(d, {}, ['duplicate_message_limit=0']), usage('range', /\(duplicate_message_limit\): /, /^give a whole number from 1$/));
  assert.throws(() => applySetOptions(d, {}, ['enable_message_limit=maybe']), usage('bool', /\(enable_message_limit\): /, /^give true or false$/));
  assert.throws(() => applySetOptions(d, {}, ['report_flags=error,nonsense']), usage('flags', /\(report_flags\): /, /^give a comma-separated list of .*error/));
});

test('settings show: one row per setting with type, default and range, nested settings indented; JSON flattens with depth', () => {
  const text = formatSettingsShow(layer, 'LINUX');
  const lines = text.split('\n');
  assert.equal(lines[0], `${VALIDATION}  (${layer.manifestPath})`);
  assert.match(text, /^ {2}\d+ settings on Linux.*; in vk_layer_settings\.txt as khronos_validation\.<key> = <value>$/m);
  assert.match(text, /^ {2}KEY +TYPE +DEFAULT +DETAILS$/m);
  assert.match(text, /^ {2}enable_message_limit +BOOL \(.*\) +true/m);
  assert.match(text, /^ {4}duplicate_message_limit +INT \(.*\) +10 +1–…/m, 'a child setting is indented under its parent');

  const json = settingsShowJson(layer);
  assert.equal(json.prefix, 'khronos_validation');
  assert.equal(json.described, true);
  const child = json.settings.find((s) => s.key === 'duplicate_message_limit');
  assert.equal(child?.depth, 1);
  assert.ok(!('children' in (child ?? {})), 'nested settings are flattened');
  assert.equal(JSON.parse(JSON.stringify(json)).settings.length, json.settings.length, 'plain data: no Map survives as {}');
});
