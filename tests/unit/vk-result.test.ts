import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { VK_ERROR_INCOMPATIBLE_DRIVER, VK_INCOMPLETE, VK_SUCCESS, vkResultName } from '../../shared/vulkan/vk-result';

// The system's own Vulkan header (Debian's libvulkan-dev, installed by the setup step) is the
// authority for the numbers: every core name the table knows must have the header's value.
const HEADER = '/usr/include/vulkan/vulkan_core.h';

test('every name the table gives is the header value of that VkResult', () => {
  const header = readFileSync(HEADER, 'utf8');
  const values = new Map<string, number>();
  for (const m of header.matchAll(/^\s+(VK_[A-Z_]+) = (-?\d+),$/gm)) values.set(m[1]!, Number(m[2]));
  let named = 0;
  for (let r = -13; r <= 5; r++) {
    const name = vkResultName(r);
    if (name.startsWith('VkResult ')) continue;
    assert.equal(values.get(name), r, `${name} is ${values.get(name)} in ${HEADER}, the table says ${r}`);
    named++;
  }
  assert.equal(named, 19, 'Vulkan 1.3 core has 19 results from -13 to 5');
  assert.equal(values.get('VK_SUCCESS'), VK_SUCCESS);
  assert.equal(values.get('VK_INCOMPLETE'), VK_INCOMPLETE);
  assert.equal(values.get('VK_ERROR_INCOMPATIBLE_DRIVER'), VK_ERROR_INCOMPATIBLE_DRIVER);
});

test('a result the table does not know is named by its number', () => {
  assert.equal(vkResultName(-1000069000), 'VkResult -1000069000');
  assert.equal(vkResultName(42), 'VkResult 42');
});
