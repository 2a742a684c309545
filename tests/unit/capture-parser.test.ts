import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CaptureParser, type CapturedLine } from '../../shared/sessions/capture-parser';
import type { CaptureRecord, MessageRecord } from '../../shared/sessions/session-records';

// shared/sessions/capture-parser.ts: a launch's output lines become line and message records.
// Lines as Debian's loader 1.3.239 and validation layer 1.3.239 print them (captured under lavapipe).
const LOADER = [
  'INFO:             Vulkan Loader Version 1.3.239',
  'LAYER:               In following locations:',
  'DEBUG | DRIVER:   Searching for ICD drivers named /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so',
  'DRIVER | LAYER:      <Application>',
  'WARNING:          env var \'VK_INSTANCE_LAYERS\' defined and adding layers "VK_LAYER_nope"',
  'ERROR | LAYER:    Requested layer "VK_LAYER_nope" failed to load!',
];
const VUID_00912 =
  'VUID-VkBufferCreateInfo-size-00912(ERROR / SPEC): msgNum: 2085897310 - Validation Error: [ VUID-VkBufferCreateInfo-size-00912 ] Object 0: handle = 0x55d0b0a5c140, name = strata-test-device, type = VK_OBJECT_TYPE_DEVICE; | MessageID = 0x7c54445e | vkCreateBuffer: parameter pCreateInfo->size (= 0) is not greater than 0 The Vulkan spec states: size must be greater than 0 (https://www.khronos.org/registry/vulkan/specs/1.3-extensions/html/vkspec.html#VUID-VkBufferCreateInfo-size-00912)';
const VUID_00378 =
  'VUID-vkDestroyDevice-device-00378(ERROR / SPEC): msgNum: 1901072314 - Validation Error: [ VUID-vkDestroyDevice-device-00378 ] Object 0: handle = 0x55d0b0a5c140, name = strata-test-device, type = VK_OBJECT_TYPE_DEVICE; Object 1: handle = 0x10000000001, type = VK_OBJECT_TYPE_BUFFER; | MessageID = 0x71500fba | OBJ ERROR : For VkDevice 0x55d0b0a5c140[strata-test-device], VkBuffer 0x10000000001[] has not been destroyed.';

function capture(lines: (Partial<CapturedLine> & { text: string })[], spec = (_: string) => ({ url: null, text: null })) {
  const parser = new CaptureParser(spec);
  const out: CaptureRecord[] = [];
  let t = 0;
  for (const l of lines) parser.push({ stream: 'validation', t: t++, wall: 1000 + t, ...l }, out);
  for (const s of ['stdout', 'stderr', 'validation'] as const) parser.end(s, out);
  return { out, counts: parser.counts, messages: out.filter((r): r is MessageRecord => r.kind === 'message') };
}

test('capture: a message and its object list become one message record after the line records; nothing is dropped', () => {
  const { out, messages, counts } = capture([
    { text: 'before', stream: 'stdout' },
    { text: VUID_00378 },
    { text: '    Objects: 2' },
    { text: '        [0] 0x55d0b0a5c140, type: 3, name: strata-test-device' },
    { text: '        [1] 0x10000000001, type: 9, name: NULL' },
    { text: 'after', stream: 'stdout' },
  ]);
  assert.deepEqual(
    out.map((r) => (r.kind === 'line' ? `${r.seq}:${r.src ?? 'app'}:${r.text.slice(0, 12)}` : `${r.seq}:message:${r.lines.join('-')}`)),
    [
      '1:app:before',
      '2:validation:VUID-vkDestr',
      '3:validation:    Objects:',
      '4:validation:        [0] ',
      '5:validation:        [1] ',
      '6:message:2-5',
      '7:app:after',
    ],
  );
  assert.equal(messages.length, 1);
  const m = messages[0]!;
  assert.equal(m.vuid, 'VUID-vkDestroyDevice-device-00378');
  assert.equal(m.complete, true);
  assert.deepEqual(m.objects, [
    { index: 0, handle: '0x55d0b0a5c140', type: 3, typeName: 'VK_OBJECT_TYPE_DEVICE', name: 'strata-test-device' },
    { index: 1, handle: '0x10000000001', type: 9, typeName: 'VK_OBJECT_TYPE_BUFFER', name: null },
  ]);
  assert.equal(counts.messages.error, 1);
  assert.deepEqual(counts.lines, { stdout: 2, stderr: 0, validation: 4 });
});

test('capture: a multi-line pMessage is joined; a message cut short is kept and marked incomplete', () => {
  const { messages } = capture([
    { text: 'UNASSIGNED-SYNC-HAZARD(ERROR / SPEC): msgNum: 7 - first line' },
    { text: 'second line of the message' },
    { text: '    Objects: 0' },
    { text: VUID_00912 },
    { text: '    Objects: 1' },
  ]);
  assert.equal(messages.length, 2);
  assert.equal(messages[0]!.text, 'first line\nsecond line of the message');
  assert.equal(messages[0]!.complete, true);
  assert.equal(messages[1]!.vuid, 'VUID-VkBufferCreateInfo-size-00912');
  assert.equal(messages[1]!.complete, false);
  assert.deepEqual(messages[1]!.objects, []);
});

test('capture: loader lines are recognized on stderr only; a header on stdout (layer output not routed) is still a message', () => {
  const { out, messages } = capture([
    { text: LOADER[0]!, stream: 'stderr' },
    { text: LOADER[0]!, stream: 'stdout' },
    { text: VUID_00912, stream: 'stdout' },
    { text: '    Objects: 1', stream: 'stdout' },
    { text: '        [0] 0x55d0b0a5c140, type: 3, name: strata-test-device', stream: 'stdout' },
  ]);
  const lines = out.filter((r) => r.kind === 'line');
  assert.equal(lines[0]!.src, 'loader');
  assert.equal(lines[0]!.level, 'info');
  assert.equal(lines[1]!.src, undefined);
  assert.equal(messages.length, 1);
  assert.equal(messages[0]!.stream, 'stdout');
  assert.equal(messages[0]!.objects[0]!.typeName, 'VK_OBJECT_TYPE_DEVICE');
});
