import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingChanges, settingValueText } from '../../renderer/src/configurator/setting-changes';

test('the Apply summary lists each layer setting the draft changes, from the installed value (absent: the default)', () => {
  const installed = { VK_LAYER_KHRONOS_validation: { validate_sync: false, report_flags: ['error'] } };
  const draft = {
    VK_LAYER_KHRONOS_validation: { validate_sync: true, report_flags: ['error'], duplicate_message_limit: 20 },
    VK_LAYER_LUNARG_api_dump: { output_format: 'json' },
  };
  assert.deepEqual(settingChanges(installed, draft), [
    { layer: 'VK_LAYER_KHRONOS_validation', key: 'duplicate_message_limit', from: undefined, to: 20 },
    { layer: 'VK_LAYER_KHRONOS_validation', key: 'validate_sync', from: false, to: true },
    { layer: 'VK_LAYER_LUNARG_api_dump', key: 'output_format', from: undefined, to: 'json' },
  ]);
  assert.deepEqual(
    settingChanges(draft, installed).map((c) => [c.key, c.to]),
    [
      ['duplicate_message_limit', undefined],
      ['validate_sync', false],
      ['output_format', undefined],
    ],
  );
  assert.deepEqual(settingChanges(installed, installed), []);
  assert.deepEqual(settingChanges(undefined, undefined), []);
  assert.deepEqual(
    [undefined, ['a', 'b'], [], '', 0, true].map((v) => settingValueText(v as never)),
    ['default', 'a, b', '(empty list)', '""', '0', 'true'],
  );
});
