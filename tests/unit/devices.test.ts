import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { DRIVER_IDS, DevicesRequestSchema, flagNames, MEMORY_HEAP_FLAGS, QUEUE_FLAGS } from '../../shared/vulkan/devices';

// shared/vulkan/devices.ts: the tables against the installed Vulkan headers (vulkan_core.h, libvulkan-dev).
const HEADER = '/usr/include/vulkan/vulkan_core.h';
const noHeader = existsSync(HEADER) ? false : `did not run: ${HEADER} is missing (Debian package libvulkan-dev)`;

test('DRIVER_IDS, QUEUE_FLAGS and MEMORY_HEAP_FLAGS are vulkan_core.h’s values', { skip: process.env['CI'] === 'true' ? false : noHeader }, () => {
  const text = readFileSync(HEADER, 'utf8');
  const value = (name: string) => {
    const m = new RegExp(`^\\s+${name} = (0x[0-9A-Fa-f]+|\\d+),`, 'm').exec(text);
    assert.ok(m, `${name} is not in ${HEADER}`);
    return Number(m[1]);
  };
  for (const [id, name] of Object.entries(DRIVER_IDS)) assert.equal(value(`VK_DRIVER_ID_${name}`), Number(id), name);
  const token = (prefix: string, name: string) =>
    `${prefix}${name.toUpperCase().replace(/-/g, '_')}_BIT${prefix === 'VK_QUEUE_' && name.startsWith('video') ? '_KHR' : prefix === 'VK_QUEUE_' && name === 'optical-flow' ? '_NV' : ''}`;
  for (const [bit, name] of QUEUE_FLAGS) assert.equal(value(token('VK_QUEUE_', name)), bit, name);
  for (const [bit, name] of MEMORY_HEAP_FLAGS) assert.equal(value(token('VK_MEMORY_HEAP_', name)), bit, name);
});

test('flag names, with unknown bits kept as hex', () => {
  assert.deepEqual(flagNames(0x7, QUEUE_FLAGS), ['graphics', 'compute', 'transfer']);
  assert.deepEqual(flagNames(0x1 | 0x8000, QUEUE_FLAGS), ['graphics', '0x8000']);
  assert.deepEqual(flagNames(0x80000000, MEMORY_HEAP_FLAGS), ['0x80000000'], 'the top bit, unsigned');
  assert.deepEqual(flagNames(0, QUEUE_FLAGS), []);
});

test('devices requests: a probe environment of variable names, nothing else', () => {
  assert.ok(DevicesRequestSchema.safeParse({ env: { VK_DRIVER_FILES: '/x.json', VK_LOADER_DEBUG: null }, origins: false }).success);
  assert.ok(!DevicesRequestSchema.safeParse({ env: { 'BAD NAME': 'x' } }).success);
  assert.ok(!DevicesRequestSchema.safeParse({ extra: 1 }).success);
});
