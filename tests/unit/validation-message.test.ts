import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseObjectLine, parseValidationHeader } from '../../shared/sessions/validation-message';

// shared/sessions/validation-message.ts: the validation layer's default callback output.
// Lines as Debian's loader 1.3.239 and validation layer 1.3.239 print them (captured under lavapipe).
const VUID_00912 =
  'VUID-VkBufferCreateInfo-size-00912(ERROR / SPEC): msgNum: 2085897310 - Validation Error: [ VUID-VkBufferCreateInfo-size-00912 ] Object 0: handle = 0x55d0b0a5c140, name = strata-test-device, type = VK_OBJECT_TYPE_DEVICE; | MessageID = 0x7c54445e | vkCreateBuffer: parameter pCreateInfo->size (= 0) is not greater than 0 The Vulkan spec states: size must be greater than 0 (https://www.khronos.org/registry/vulkan/specs/1.3-extensions/html/vkspec.html#VUID-VkBufferCreateInfo-size-00912)';

test('validation message header and object lines', () => {
  assert.deepEqual(parseValidationHeader(VUID_00912), {
    vuid: 'VUID-VkBufferCreateInfo-size-00912',
    severity: 'error',
    types: ['SPEC'],
    messageId: 2085897310,
    text: VUID_00912.slice(VUID_00912.indexOf(' - ') + 3),
  });
  assert.equal(parseValidationHeader('UNASSIGNED-BestPractices-vkCreateDevice(WARN / PERF): msgNum: -1234 - text')?.severity, 'warning');
  assert.equal(parseValidationHeader('UNASSIGNED-x(INFO / GEN): msgNum: -5 - t')?.messageId, -5);
  assert.equal(parseValidationHeader('app: (ERROR / SPEC): msgNum: x - no'), null);
  assert.deepEqual(parseObjectLine('        [1] 0x10000000001, type: 9, name: NULL'), { index: 1, handle: '0x10000000001', type: 9, name: null });
  assert.deepEqual(parseObjectLine('        [0] 0x55d0b0a5c140, type: 3, name: my device, 2'), {
    index: 0,
    handle: '0x55d0b0a5c140',
    type: 3,
    name: 'my device, 2',
  });
});
