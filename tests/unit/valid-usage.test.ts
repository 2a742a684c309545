import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { indexValidUsage, specReference, specUrlFor, validUsagePlainText } from '../../shared/sessions/valid-usage';

// shared/sessions/valid-usage.ts: VUIDs to the registry's text (validusage.json) and the spec's anchors.
test('valid usage: registry entries as plain text; links only for known VUIDs, or for every VUID without a registry', () => {
  const index = indexValidUsage({
    'version info': { 'api version': '1.3.239' },
    validation: {
      VkBufferCreateInfo: {
        core: [{ vuid: 'VUID-VkBufferCreateInfo-size-00912', text: '<code>size</code> <strong class="purple">must</strong> be greater than <code>0</code>' }],
      },
    },
  });
  assert.equal(index.apiVersion, '1.3.239');
  assert.deepEqual(specReference('VUID-VkBufferCreateInfo-size-00912', index), {
    url: 'https://registry.khronos.org/vulkan/specs/1.3-extensions/html/vkspec.html#VUID-VkBufferCreateInfo-size-00912',
    text: 'size must be greater than 0',
  });
  assert.deepEqual(specReference('VUID-VkImageCreateInfo-extent-00944', index), { url: null, text: null });
  assert.equal(specReference('VUID-VkImageCreateInfo-extent-00944', null).url, specUrlFor('VUID-VkImageCreateInfo-extent-00944'));
  assert.deepEqual(specReference('UNASSIGNED-CoreValidation-DrawState', null), { url: null, text: null });
  assert.equal(validUsagePlainText('a &lt;b&gt; &amp; <a href="#x">c</a>'), 'a <b> & c');
  assert.equal(indexValidUsage('not json').entries.size, 0);
});

const REGISTRY = '/usr/share/vulkan/registry/validusage.json';
const noRegistry = existsSync(REGISTRY) ? false : `did not run: ${REGISTRY} is missing (Debian package vulkan-validationlayers-dev / libvulkan-dev)`;

test("valid usage: Debian's validusage.json knows the fixture's VUIDs", { skip: process.env['CI'] === 'true' ? false : noRegistry }, () => {
  const index = indexValidUsage(JSON.parse(readFileSync('/usr/share/vulkan/registry/validusage.json', 'utf8')));
  assert.ok(index.entries.size > 10_000);
  assert.equal(index.entries.get('VUID-VkBufferCreateInfo-size-00912'), 'size must be greater than 0');
  assert.ok(index.entries.has('VUID-vkDestroyDevice-device-00378'));
});
