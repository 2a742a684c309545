import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatApplyResult, formatOverrideStatus, formatRemoveResult } from '../../main/hosts/cli/override-command';
import { overrideApply, overrideRemove, overrideStatus } from '../../main/override/override-service';
import type { OverrideConfig } from '../../shared/override/override-config';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/override-command.ts: what `strata override apply|status|remove` print, over what the
 * override service really did in a temporary HOME: which layers are forced on (in order) and off,
 * whose file it is, what the apply replaced and where the earlier override is kept, and that
 * remove puts back what was there before Strata.
 */
const config: OverrideConfig = {
  layers: [
    { name: 'VK_LAYER_KHRONOS_validation', state: 'on' },
    { name: 'VK_LAYER_MESA_overlay', state: 'on' },
    { name: 'VK_LAYER_MESA_device_select', state: 'off' },
  ],
  appKeys: ['/opt/game/bin/game'],
};

test('a first apply, its status, a repeat, then remove: each as the CLI prints it', async () => {
  const home = makeTempHome();
  try {
    const o = { env: home.env };
    const before = overrideStatus(o, {});
    const beforeText = formatOverrideStatus(before);
    assert.match(beforeText, /^Override \(user\)\n  file +.*VkLayer_override\.json\n  state +no override file$/m);

    const applied = await overrideApply(o, { config });
    const text = formatApplyResult(applied, config);
    assert.match(text.split('\n')[0]!, new RegExp(`^Created ${applied.path.replace(/[.]/g, '\\.')} \\(there was no override before\\)\\.$`));
    assert.match(text, /^  forced on, in this order: VK_LAYER_KHRONOS_validation, VK_LAYER_MESA_overlay$/m);
    assert.match(text, /^  forced off: VK_LAYER_MESA_device_select$/m);
    assert.match(text, /^  only for: \/opt\/game\/bin\/game$/m);
    assert.match(text, /Vulkan applications started from now on get this; run one with \w+=1 to leave the override out\.$/);

    const status = formatOverrideStatus(overrideStatus(o, {}));
    assert.match(status, /^  state +Strata's \(written .+\)$/m);
    assert.match(status, /^  on \(in order\) +VK_LAYER_KHRONOS_validation, VK_LAYER_MESA_overlay$/m);
    assert.match(status, /^  off +VK_LAYER_MESA_device_select$/m);
    assert.match(status, /^  only for +\/opt\/game\/bin\/game$/m);

    const again = await overrideApply(o, { config });
    assert.equal(formatApplyResult(again, config), `The override at ${again.path} already has this configuration; nothing changed.`);

    const removed = formatRemoveResult(overrideRemove(o, {}));
    assert.match(removed, /^Removed Strata's override: .* is gone, and applications choose their layers again\.$/m);
    assert.match(formatRemoveResult(overrideRemove(o, {})), /^Nothing to remove: /);
  } finally {
    home.cleanup();
  }
});

test("over another tool's override: forced, the earlier file is kept and remove restores it; a config forcing nothing installs nothing", async () => {
  const home = makeTempHome();
  try {
    const o = { env: home.env };
    const path = overrideStatus(o, {}).path;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(
      path,
      JSON.stringify({
        file_format_version: '1.1.2',
        layer: {
          name: 'VK_LAYER_LUNARG_override',
          type: 'GLOBAL',
          api_version: '1.3.0',
          implementation_version: '1',
          description: 'vkconfig',
          component_layers: [],
        },
      }),
    );
    const foreign = formatOverrideStatus(overrideStatus(o, {}));
    assert.match(foreign, /^  state +not Strata's \(another tool's or a person's\)$/m);
    const applied = await overrideApply(o, { config, force: true });
    const text = formatApplyResult(applied, config);
    assert.match(text.split('\n')[0]!, /^Replaced .* \(replacing another tool's override\)\.$/);
    assert.match(text, /^The override that was there before Strata is kept in .+; `strata override remove` puts it back\.$/m);
    assert.match(formatOverrideStatus(overrideStatus(o, {})), /^  remove restores +the earlier override, kept in /m);
    assert.match(formatRemoveResult(overrideRemove(o, {})), /^Removed Strata's override and restored the override that was at .* before Strata, as it was/);

    const none = await overrideApply(o, { config: { layers: [] } });
    assert.equal(formatApplyResult(none, { layers: [] }), 'This configuration forces no layer on or off; no override file is installed.');
  } finally {
    home.cleanup();
  }
});
