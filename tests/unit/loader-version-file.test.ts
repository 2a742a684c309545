import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loaderVersionFromFileName } from '../../main/chain/loader-version-file';

// The installed loader's version from its file name, found as dlopen finds libvulkan.so.1.
const SYSTEM = realpathSync('/usr/lib/x86_64-linux-gnu/libvulkan.so.1');

test('the version is read from the file libvulkan.so.1 links to, first in LD_LIBRARY_PATH', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-loader-file-'));
  try {
    copyFileSync(SYSTEM, join(dir, 'libvulkan.so.1.4.341'));
    symlinkSync('libvulkan.so.1.4.341', join(dir, 'libvulkan.so.1'));
    assert.equal(loaderVersionFromFileName({ LD_LIBRARY_PATH: dir }), '1.4.341');
    // Without the variable: the system's (Debian 12: 1.3.239), from the linker cache.
    assert.match(loaderVersionFromFileName({})!, /^1\.3\.239$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file name without a version, or a file that is not a library, says nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-loader-file-'));
  try {
    copyFileSync(SYSTEM, join(dir, 'libvulkan.so.1'));
    assert.equal(loaderVersionFromFileName({ LD_LIBRARY_PATH: dir }), null);
    rmSync(join(dir, 'libvulkan.so.1'));
    writeFileSync(join(dir, 'libvulkan.so.1.9.9'), 'not a library');
    symlinkSync('libvulkan.so.1.9.9', join(dir, 'libvulkan.so.1'));
    // dlopen would skip the non-ELF file and go on to the system loader.
    assert.equal(loaderVersionFromFileName({ LD_LIBRARY_PATH: dir }), '1.3.239');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
