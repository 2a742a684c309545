import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { overrideApply, overrideExport, overridePreview, overrideRemove, overrideStatus } from '../../main/override/override-service';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { withTempHome } from '../helpers/temp-home';

/**
 * main/override/override-service.ts in a temporary home: the override channels over the writer, with
 * the settings checked against the layer's description from discovery (Debian's validation layer).
 * What the real loader and layer make of the files: override-writer.test.ts, settings-writer.test.ts.
 */
const VALIDATION = 'VK_LAYER_KHRONOS_validation';

test(
  'preview, apply, status, remove: the override file where the loader reads it, the settings file beside it',
  withTempHome(async (home) => {
    const o = { env: home.env };
    const config = { layers: [{ name: VALIDATION, state: 'on' as const }], settings: { [VALIDATION]: { duplicate_message_limit: 20 } } };
    const preview = await overridePreview(o, { config });
    assert.deepEqual(preview.files.map((f) => [f.role, f.action, f.needsForce]).sort(), [
      ['override', 'create', false],
      ['settings', 'create', false],
    ]);
    assert.equal(existsSync(join(home.dir, '.local', 'share', 'vulkan', 'implicit_layer.d', 'VkLayer_override.json')), false, 'a preview writes nothing');
    const applied = await overrideApply(o, { config });
    const overrideFile = join(home.dir, '.local', 'share', 'vulkan', 'implicit_layer.d', 'VkLayer_override.json');
    assert.equal(applied.path, overrideFile);
    assert.deepEqual(JSON.parse(readFileSync(overrideFile, 'utf8')).layer.component_layers, [VALIDATION]);
    assert.deepEqual(JSON.parse(readFileSync(overrideFile, 'utf8')), JSON.parse(overrideExport({ config }).text), 'export gives what apply writes');
    const settingsFile = join(home.dir, '.local', 'share', 'vulkan', 'settings.d', 'vk_layer_settings.txt');
    assert.match(readFileSync(settingsFile, 'utf8'), /^khronos_validation\.duplicate_message_limit = 20$/m);
    assert.equal(overrideStatus(o, {}).ownership, 'strata');
    overrideRemove(o, {});
    assert.equal(existsSync(overrideFile), false);
    assert.equal(existsSync(settingsFile), false);
    assert.equal(overrideStatus(o, {}).ownership, 'absent');
  }),
);

test(
  'a setting out of its range refuses the whole apply, naming the field; nothing is written',
  withTempHome(async (home) => {
    const o = { env: home.env };
    await assert.rejects(
      overrideApply(o, {
        config: { layers: [{ name: VALIDATION, state: 'on' }], settings: { [VALIDATION]: { duplicate_message_limit: 0, printf_buffer_size: 1 } } },
      }),
      (e: unknown) => {
        assert.ok(e instanceof StrataRequestError);
        assert.equal(e.error.code, 'settings/invalid-value');
        assert.equal(e.error.where, `settings.${VALIDATION}.duplicate_message_limit`);
        assert.match(e.error.message, /must be at least 1 \(and 1 more problem\); nothing was written$/);
        return true;
      },
    );
    assert.equal(existsSync(join(home.dir, '.local', 'share', 'vulkan', 'implicit_layer.d', 'VkLayer_override.json')), false);
    assert.equal(overrideExport({ config: { layers: [{ name: VALIDATION, state: 'off' }] } }).fileName, 'VkLayer_override.json');
  }),
);
