import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazySpecLookup, loadValidUsage, validUsageCandidates } from '../../main/sessions/valid-usage-registry';
import { specUrlFor } from '../../shared/sessions/valid-usage';

/**
 * main/sessions/valid-usage-registry.ts: where validusage.json is looked for (Strata's override, the
 * SDK, the distributions'), that a missing, broken or empty registry falls through to the next one,
 * and that the lookup reads it only when the first message needs it. The real registry Debian ships
 * (/usr/share/vulkan/registry/validusage.json, libvulkan-dev) is the ground truth for the texts.
 */
const DEBIAN = '/usr/share/vulkan/registry/validusage.json';
const registry = (vuid: string, html: string) =>
  JSON.stringify({ 'version info': { 'api version': '9.9.9' }, validation: { vkCmdDraw: { core: [{ vuid, text: html }] } } });

function withDir(fn: (dir: string) => void) {
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-validusage-'));
    try {
      fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test('candidates: STRATA_VALIDUSAGE_JSON, then $VULKAN_SDK/share/vulkan/registry, then /usr and /usr/local', () => {
  assert.deepEqual(validUsageCandidates({ STRATA_VALIDUSAGE_JSON: '/x.json', VULKAN_SDK: '/sdk' }), [
    '/x.json',
    '/sdk/share/vulkan/registry/validusage.json',
    DEBIAN,
    '/usr/local/share/vulkan/registry/validusage.json',
  ]);
  assert.deepEqual(validUsageCandidates({}), [DEBIAN, '/usr/local/share/vulkan/registry/validusage.json']);
});

test(
  'a broken or empty registry falls through to the next candidate; the first good one wins',
  withDir((dir) => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    const sdk = join(dir, 'sdk');
    mkdirSync(join(sdk, 'share', 'vulkan', 'registry'), { recursive: true });
    writeFileSync(join(sdk, 'share', 'vulkan', 'registry', 'validusage.json'), registry('VUID-vkCmdDraw-None-00001', 'SDK <code>text</code> &amp; more'));
    const index = loadValidUsage({ STRATA_VALIDUSAGE_JSON: broken, VULKAN_SDK: sdk });
    assert.equal(index?.apiVersion, '9.9.9');
    assert.equal(index?.entries.get('VUID-vkCmdDraw-None-00001'), 'SDK text & more');

    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify({ validation: {} }));
    const fromEmpty = loadValidUsage({ STRATA_VALIDUSAGE_JSON: empty, VULKAN_SDK: sdk });
    assert.equal(fromEmpty?.apiVersion, '9.9.9', 'an empty registry is skipped like a missing one');
  }),
);

test(
  'the real registry: a VUID it lists gets the spec link and its text; an id it does not list gets neither',
  { skip: !existsSync(DEBIAN) && process.env.CI !== 'true' ? `${DEBIAN} is not installed (libvulkan-dev): this test did not run` : false },
  () => {
    const index = loadValidUsage({});
    assert.ok(index, `${DEBIAN} was not read`);
    assert.ok(index.entries.size > 10_000);
    const lookup = lazySpecLookup({});
    const known = lookup('VUID-vkGetInstanceProcAddr-instance-parameter');
    assert.equal(known.url, specUrlFor('VUID-vkGetInstanceProcAddr-instance-parameter'));
    assert.equal(known.text, 'If instance is not NULL, instance must be a valid VkInstance handle');
    assert.deepEqual(lookup('UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout'), { url: null, text: null });
    assert.deepEqual(lookup('VUID-vkNotACommand-x-99999'), { url: null, text: null });
  },
);

test(
  'the lookup reads the registry on its first use, not when it is made',
  withDir((dir) => {
    const later = join(dir, 'later.json');
    const lookup = lazySpecLookup({ STRATA_VALIDUSAGE_JSON: later });
    writeFileSync(later, registry('VUID-vkCmdDraw-None-00002', 'later'));
    assert.deepEqual(lookup('VUID-vkCmdDraw-None-00002'), { url: specUrlFor('VUID-vkCmdDraw-None-00002'), text: 'later' });
  }),
);
