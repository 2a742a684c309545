import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dependenceState } from '../../shared/settings/setting-dependence';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';
import type { SettingDescription } from '../../shared/settings/setting-types';
import type { SettingValue } from '../../shared/settings/setting-values';

// shared/settings/setting-dependence.ts on the settings description of Debian's validation layer
// (VkLayer_khronos_validation.json, file_format_version 1.2.0), whose dependences use ALL and ANY.
const d = layerSettingsFromManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'), 'VK_LAYER_KHRONOS_validation')!;
const s = (key: string) => d.byKey.get(key) as SettingDescription;
const state = (key: string, values: Record<string, SettingValue>) =>
  dependenceState(
    s(key),
    (k) => values[k],
    (k) => d.byKey.get(k),
  );

test('no dependence, or mode NONE: always enabled', () => {
  assert.deepEqual(state('report_flags', {}), { enabled: true, reason: null });
  const none = { ...s('log_filename'), dependence: { mode: 'NONE' as const, conditions: [{ key: 'debug_action', value: ['x'] }] } } as SettingDescription;
  assert.deepEqual(
    dependenceState(
      none,
      () => undefined,
      () => undefined,
    ),
    { enabled: true, reason: null },
  );
});

test('a condition on a FLAGS value holds when the value contains every listed item', () => {
  assert.equal(state('log_filename', { debug_action: ['VK_DBG_LAYER_ACTION_LOG_MSG'] }).enabled, true);
  assert.equal(state('log_filename', { debug_action: ['VK_DBG_LAYER_ACTION_BREAK', 'VK_DBG_LAYER_ACTION_LOG_MSG'] }).enabled, true);
  assert.deepEqual(state('log_filename', { debug_action: ['VK_DBG_LAYER_ACTION_BREAK'] }), {
    enabled: false,
    reason: 'Needs Debug Action to include Log Message',
  });
  assert.equal(state('log_filename', {}).enabled, false, 'no value: the condition does not hold');
  const both = {
    ...s('log_filename'),
    dependence: { mode: 'ALL' as const, conditions: [{ key: 'debug_action', value: ['VK_DBG_LAYER_ACTION_LOG_MSG', 'VK_DBG_LAYER_ACTION_BREAK'] }] },
  } as SettingDescription;
  assert.deepEqual(
    dependenceState(
      both,
      () => ['VK_DBG_LAYER_ACTION_LOG_MSG'],
      (k) => d.byKey.get(k),
    ),
    {
      enabled: false,
      reason: 'Needs Debug Action to include Log Message and Break',
    },
  );
});

test('a condition on a BOOL holds on equality; the reason says on/off', () => {
  assert.equal(state('duplicate_message_limit', { enable_message_limit: true }).enabled, true);
  assert.deepEqual(state('duplicate_message_limit', { enable_message_limit: false }), {
    enabled: false,
    reason: 'Needs Limit Duplicated Messages to be on',
  });
});

test('ANY needs one condition, ALL needs every one; failing conditions are joined with "or" / "and"', () => {
  const two = (mode: 'ALL' | 'ANY') =>
    ({
      ...s('log_filename'),
      dependence: {
        mode,
        conditions: [
          { key: 'enable_message_limit', value: true },
          { key: 'other', value: 'x' },
        ],
      },
    }) as SettingDescription;
  const values: Record<string, SettingValue> = { enable_message_limit: true };
  assert.equal(
    dependenceState(
      two('ANY'),
      (k) => values[k],
      (k) => d.byKey.get(k),
    ).enabled,
    true,
  );
  assert.deepEqual(
    dependenceState(
      two('ALL'),
      (k) => values[k],
      (k) => d.byKey.get(k),
    ),
    { enabled: false, reason: 'Needs other to be x' },
  );
  assert.deepEqual(
    dependenceState(
      two('ANY'),
      () => undefined,
      (k) => d.byKey.get(k),
    ),
    {
      enabled: false,
      reason: 'Needs Limit Duplicated Messages to be on or other to be x',
    },
  );
});
