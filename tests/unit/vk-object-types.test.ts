import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectTypeName, VK_OBJECT_TYPES } from '../../shared/sessions/vk-object-types';

// shared/sessions/vk-object-types.ts: VkObjectType values of vulkan_core.h (1.3.239 headers).
test('core and extension values name their VkObjectType; unknown and null give null', () => {
  assert.equal(objectTypeName(9), 'VK_OBJECT_TYPE_BUFFER');
  assert.equal(objectTypeName(0), 'VK_OBJECT_TYPE_UNKNOWN');
  assert.equal(objectTypeName(25), 'VK_OBJECT_TYPE_COMMAND_POOL');
  assert.equal(objectTypeName(1000128000), 'VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT');
  assert.equal(objectTypeName(1000001000), 'VK_OBJECT_TYPE_SWAPCHAIN_KHR');
  assert.equal(objectTypeName(26), null);
  assert.equal(objectTypeName(-1), null);
  assert.equal(objectTypeName(null), null);
});

test('the table agrees with the installed vulkan_core.h where it has the enum', async () => {
  const { existsSync, readFileSync } = await import('node:fs');
  const header = '/usr/include/vulkan/vulkan_core.h';
  // npm test's setup installs libvulkan-dev: a missing header is a failure, not a skip.
  assert.ok(existsSync(header), `${header} is missing: install the Debian package libvulkan-dev (npm test's setup does)`);
  const text = readFileSync(header, 'utf8');
  for (const [value, name] of Object.entries(VK_OBJECT_TYPES)) {
    const m = new RegExp(`^\\s+${name} = (\\d+),`, 'm').exec(text);
    assert.ok(m, `${name} is not in ${header}`);
    assert.equal(m[1], value, name);
  }
});
