import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeApiVersion, decodeDriverVersion } from '../../shared/vulkan/versions';

test('apiVersion: 7/10/12 bits, variant dropped', () => {
  assert.equal(decodeApiVersion((1 << 22) | (3 << 12) | 239), '1.3.239');
  assert.equal(decodeApiVersion(((1 << 29) | (1 << 22) | (2 << 12) | 5) >>> 0), '1.2.5');
});

test('driverVersion per vendor: NVIDIA 10/8/8/6, Intel on Windows 18/14, others Vulkan-style', () => {
  const nvidia = ((535 << 22) | (54 << 14) | (3 << 6) | 1) >>> 0;
  assert.equal(decodeDriverVersion(nvidia, 0x10de, 'linux'), '535.54.3.1');
  const intelWin = (101 << 14) | 4091;
  assert.equal(decodeDriverVersion(intelWin, 0x8086, 'win32'), '101.4091');
  assert.equal(decodeDriverVersion((23 << 22) | (1 << 12) | 4, 0x8086, 'linux'), '23.1.4');
  assert.equal(decodeDriverVersion(1, 0x10005, 'linux'), '0.0.1');
  assert.equal(decodeDriverVersion(0xffffffff, 0x1002, 'linux'), '1023.1023.4095');
});
