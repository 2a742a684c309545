import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isVulkanRelatedName, knownVariable, LOADER_VARIABLES } from '../../shared/loader/environment-variables';
import { LOADER_SOURCES, loaderArchives } from '../helpers/loader-builds';

/**
 * shared/loader/environment-variables.ts against the real loader sources: each variable the table
 * marks "ignored when elevated" is read with loader_secure_getenv (directly or through
 * parse_generic_filter_environment_var, loader_environment.c) in every release that reads it, and
 * each other one with plain loader_getenv. Only the loader's sources are read, nothing is built.
 */
const unavailable = existsSync(join(LOADER_SOURCES, 'SHA256SUMS')) ? null : `the loader sources are missing: ${LOADER_SOURCES}/SHA256SUMS`;
const skip = unavailable && process.env['CI'] !== 'true' ? `did not run: ${unavailable}` : false;

/** variable name → 'secure' | 'plain', from one release's loader/*.c and *.h. */
function howRead(archive: string): Map<string, Set<'secure' | 'plain'>> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-env-vars-'));
  try {
    execFileSync('tar', ['xJf', archive, '-C', dir, '--wildcards', '*/loader/*.c', '*/loader/*.h'], { stdio: 'pipe' });
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else files.push(join(d, e.name));
      }
    };
    walk(dir);
    const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const macros = new Map([...text.matchAll(/#define\s+(\w+)\s+"(VK_\w+)"/g)].map((m) => [m[1]!, m[2]!]));
    const out = new Map<string, Set<'secure' | 'plain'>>();
    for (const m of text.matchAll(/\b(loader_secure_getenv|loader_getenv|parse_generic_filter_environment_var)\(\s*(?:inst,\s*)?("VK_\w+"|\w+)/g)) {
      const arg = m[2]!;
      const name = arg.startsWith('"') ? arg.slice(1, -1) : macros.get(arg);
      if (!name) continue;
      const how = m[1] === 'loader_getenv' ? 'plain' : 'secure';
      out.set(name, (out.get(name) ?? new Set()).add(how));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every release reads each variable as the table says: secure (ignored when elevated) or plain', { skip }, () => {
  if (unavailable) assert.fail(unavailable);
  const archives = loaderArchives();
  assert.ok(archives.length >= 6, `${archives.length} loader archives`);
  const seen = new Set<string>();
  for (const a of archives) {
    const read = howRead(a.archive);
    for (const v of LOADER_VARIABLES) {
      const how = read.get(v.name);
      if (!how) continue; // not read (directly) by this release
      seen.add(v.name);
      assert.deepEqual([...how], [v.ignoredWhenElevated ? 'secure' : 'plain'], `${v.name} in loader ${a.version}`);
    }
  }
  // Every row is checked somewhere; VK_INSTANCE_LAYERS is read through ENABLED_LAYERS_ENV.
  assert.deepEqual(
    LOADER_VARIABLES.map((v) => v.name).filter((n) => !seen.has(n)),
    [],
  );
});

test('knownVariable and isVulkanRelatedName', () => {
  assert.equal(knownVariable('VK_LOADER_DEBUG')?.ignoredWhenElevated, false);
  assert.equal(knownVariable('VK_LAYER_PATH')?.ignoredWhenElevated, true);
  assert.equal(knownVariable('VK_KHRONOS_VALIDATION_DEBUG_ACTION'), undefined);
  for (const n of ['VK_KHRONOS_VALIDATION_DEBUG_ACTION', 'VULKAN_SDK', 'MESA_VK_DEVICE_SELECT', 'NODEVICE_SELECT', 'DISABLE_MESA_DEVICE_SELECT'])
    assert.equal(isVulkanRelatedName(n), true, n);
  for (const n of ['HOME', 'vk_lower', 'MESA_LOADER_DRIVER_OVERRIDE']) assert.equal(isVulkanRelatedName(n), false, n);
});
