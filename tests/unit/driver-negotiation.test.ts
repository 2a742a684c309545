import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import {
  driverLabel,
  emptyNegotiation,
  failedNegotiation,
  INTERFACE_VERSION_FEATURES,
  LOADER_ICD_INTERFACE_VERSION,
  probeDiedError,
} from '../../shared/vulkan/driver-negotiation';

// shared/vulkan/driver-negotiation.ts (LoaderDriverInterface.md, "Loader and Driver Interface Negotiation").
const HEADER = '/usr/include/vulkan/vk_icd.h';
const noHeader = existsSync(HEADER) ? false : `did not run: ${HEADER} is missing (Debian package libvulkan-dev)`;

test(
  'the interface version offered is vk_icd.h’s CURRENT_LOADER_ICD_INTERFACE_VERSION; every version up to it is described',
  { skip: process.env['CI'] === 'true' ? false : noHeader },
  () => {
    const m = /#define CURRENT_LOADER_ICD_INTERFACE_VERSION (\d+)/.exec(readFileSync(HEADER, 'utf8'));
    assert.equal(Number(m?.[1]), LOADER_ICD_INTERFACE_VERSION);
    assert.deepEqual(
      Object.keys(INTERFACE_VERSION_FEATURES).map(Number),
      Array.from({ length: LOADER_ICD_INTERFACE_VERSION + 1 }, (_, i) => i),
    );
  },
);

test('an empty result knows nothing and is not ok; a failed one keeps what was known and the error', () => {
  const e = emptyNegotiation('/icd.d/lvp.json');
  assert.equal(e.requestedVersion, LOADER_ICD_INTERFACE_VERSION);
  assert.equal(e.ok, false);
  assert.equal(e.interfaceVersion, null);
  assert.equal(emptyNegotiation('/x.json', 5).requestedVersion, 5);
  const error = probeDiedError('crashed', '/icd.d/lvp.json', 'libvulkan_lvp.so', 'vk_icdNegotiateLoaderICDInterfaceVersion', 'SIGSEGV');
  const f = failedNegotiation('/icd.d/lvp.json', error, 12, { libraryPath: 'libvulkan_lvp.so', ok: true });
  assert.equal(f.ok, false, 'a failed result is never ok, whatever the partial says');
  assert.equal(f.libraryPath, 'libvulkan_lvp.so');
  assert.equal(f.elapsedMs, 12);
  assert.equal(f.error, error);
});

test('messages name the driver by its manifest file and library; a crash and a timeout say what the loader would do', () => {
  assert.equal(driverLabel('/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', 'libvulkan_lvp.so'), 'lvp_icd.x86_64.json (libvulkan_lvp.so)');
  assert.equal(driverLabel('/a/b.json', null), 'b.json');
  const crash = probeDiedError('crashed', '/a/b.json', 'b.so', 'dlopen', 'SIGSEGV');
  assert.equal(crash.code, 'driver/crashed');
  assert.equal(crash.message, 'Driver b.json (b.so) crashed the probe during dlopen: SIGSEGV');
  assert.equal(crash.where, '/a/b.json');
  assert.match(crash.fix ?? '', /crash the application the same way/);
  const hang = probeDiedError('timeout', '/a/b.json', null, null, '5000 ms');
  assert.equal(hang.code, 'driver/timeout');
  assert.equal(hang.message, 'Driver b.json did not return within 5000 ms');
});
