import { test } from 'node:test';
import assert from 'node:assert/strict';
import { windowsLibraryFile } from '../../shared/vulkan/windows-library-path';

// shared/vulkan/windows-library-path.ts: combine_manifest_directory_and_library_path and
// loader_platform_is_path_absolute (vk_loader_platform.h, loaders 1.3.239 … 1.4.359).
test("windowsLibraryFile: the loader's rule for library_path on Windows (absolute, manifest-relative with a backslash, else a bare name)", () => {
  const m = 'C:\\layers\\x.json';
  assert.deepEqual(windowsLibraryFile(m, 'D:\\lib\\x.dll'), { path: 'D:\\lib\\x.dll', via: 'absolute' });
  assert.deepEqual(windowsLibraryFile(m, '\\\\server\\share\\x.dll'), { path: '\\\\server\\share\\x.dll', via: 'absolute' });
  assert.deepEqual(windowsLibraryFile(m, '.\\x.dll'), { path: 'C:\\layers\\.\\x.dll', via: 'manifest-relative' });
  assert.deepEqual(windowsLibraryFile(m, 'sub\\x.dll'), { path: 'C:\\layers\\sub\\x.dll', via: 'manifest-relative' });
  // A forward slash is not the loader's DIRECTORY_SYMBOL: "./x.dll" goes to LoadLibrary as it is.
  assert.equal(windowsLibraryFile(m, './x.dll'), null);
  assert.equal(windowsLibraryFile(m, 'x.dll'), null);
});

test('windowsLibraryFile: "C:x.dll" (drive-relative) counts as absolute; a manifest path without a backslash gives the bare relative path', () => {
  assert.deepEqual(windowsLibraryFile('C:\\layers\\x.json', 'C:x.dll'), { path: 'C:x.dll', via: 'absolute' });
  assert.deepEqual(windowsLibraryFile('x.json', 'sub\\x.dll'), { path: 'sub\\x.dll', via: 'manifest-relative' });
});
