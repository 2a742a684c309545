#!/usr/bin/env node
// Installs what `npm start` / `npm test` need on a fresh Debian machine, and nothing when it is
// all there already (a stamp keyed on package-lock.json makes the npm step a no-op).
// Node built-ins only: this runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Debian packages per purpose. The app needs the loader and a driver; the tests need the real tools. */
export const DEBIAN_PACKAGES = {
  start: ['libvulkan1', 'mesa-vulkan-drivers', 'vulkan-tools'],
  test: [
    'libvulkan1',
    'libvulkan-dev',
    'mesa-vulkan-drivers',
    'vulkan-tools',
    'vulkan-validationlayers',
    'spirv-tools',
    'spirv-headers',
    'spirv-cross',
    'glslang-tools',
    'gcc',
    'chromium',
    // Third-party implicit layers whose real manifests the lint must accept (MangoHud, vkBasalt).
    'mangohud',
    'vkbasalt',
    // The Windows lane (tests/helpers/windows-lane.ts): the real Windows loader built with mingw-w64, run under Wine.
    // Xvfb: DXGI (and so the loader's HKLM Drivers key) needs a display under Wine.
    'wine',
    'wine64',
    'mingw-w64',
    'xvfb',
    // The loader matrix (tests/helpers/loader-builds.ts): six Khronos loaders built from source.
    'cmake',
    'ninja-build',
    'xz-utils',
    // The token test reads Chromium's History database.
    'sqlite3',
  ],
};

const say = (line) => process.stderr.write(`strata setup: ${line}\n`);

function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  return r.status === 0;
}

function missingDebianPackages(packages) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev}\n', ...packages], { encoding: 'utf8' });
  if (r.error) return null; // not a Debian-like system
  const installed = new Set(
    r.stdout
      .split('\n')
      .filter((l) => / ii\s*$/.test(l))
      .map((l) => l.split(' ')[0].split(':')[0]),
  );
  return packages.filter((p) => !installed.has(p));
}

export function ensureSystemPackages(purpose) {
  const wanted = DEBIAN_PACKAGES[purpose];
  const missing = missingDebianPackages(wanted);
  if (missing === null) {
    say(`not a Debian system (no dpkg-query): install the Vulkan loader, Mesa's Vulkan drivers and vulkan-tools yourself.`);
    return purpose !== 'test';
  }
  if (missing.length === 0) return true;
  const command = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    say(`missing Debian packages: ${missing.join(' ')}. Fix: run \`sudo apt-get update && sudo ${command}\`, then try again.`);
    return purpose !== 'test';
  }
  say(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!run('apt-get', ['update', '-qq'], env) || !run('apt-get', ['install', '-y', '-qq', ...missing], env)) {
    say(`apt-get failed. Fix: run \`apt-get update && ${command}\` and read its error.`);
    return false;
  }
  return true;
}

function lockDigest() {
  const lock = join(root, 'package-lock.json');
  const text = existsSync(lock) ? readFileSync(lock) : readFileSync(join(root, 'package.json'));
  return createHash('sha256').update(text).update(process.version).digest('hex');
}

export function ensureNodeModules() {
  const stamp = join(root, 'node_modules', '.strata-setup-stamp');
  const digest = lockDigest();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return true;
  const args = existsSync(join(root, 'package-lock.json')) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  say(`installing npm packages (npm ${args[0]})`);
  let ok = run('npm', args);
  if (!ok) {
    // Electron's install script downloads its binary, which cannot work offline: retry without it.
    // Strata then runs in the browser host (`npm start` falls back by itself).
    say("npm failed; retrying with ELECTRON_SKIP_BINARY_DOWNLOAD=1 (the desktop window needs Electron's binary; the browser host does not)");
    ok = run('npm', args, { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
  }
  if (!ok) {
    say(`npm ${args[0]} failed. Fix: read npm's error above; check that the npm registry is reachable.`);
    return false;
  }
  writeFileSync(stamp, digest);
  return true;
}

export function ensureSetup(purpose) {
  if (process.env.STRATA_SKIP_SETUP === '1') return true;
  return ensureSystemPackages(purpose) && ensureNodeModules();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const purpose = process.argv[2] === 'test' ? 'test' : 'start';
  process.exit(ensureSetup(purpose) ? 0 : 1);
}
