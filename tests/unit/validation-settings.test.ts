import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeValidationSettings, settingsLogFile } from '../../shared/sessions/validation-settings';

// shared/sessions/validation-settings.ts: the validation layer's settings for one launch (vk_layer_settings.txt, layer 1.3.239).
test("layer settings for one launch: the user's settings kept, log routed, LOG_MSG added to the actions", () => {
  const base =
    '# mine\nkhronos_validation.report_flags = error,warn\nkhronos_validation.debug_action = VK_DBG_LAYER_ACTION_BREAK,VK_DBG_LAYER_ACTION_IGNORE\nkhronos_validation.log_filename = /tmp/old.txt\n';
  const routed = routeValidationSettings(base, '/run/strata/validation.fifo');
  assert.match(routed, /^# mine\nkhronos_validation\.report_flags = error,warn\n/);
  assert.match(routed, /\nkhronos_validation\.debug_action = VK_DBG_LAYER_ACTION_BREAK,VK_DBG_LAYER_ACTION_LOG_MSG\n/);
  assert.equal(settingsLogFile(routed), '/run/strata/validation.fifo');
  assert.doesNotMatch(routed, /old\.txt|IGNORE/);
  assert.match(routeValidationSettings(null, '/f'), /^# Added by Strata/);
});
