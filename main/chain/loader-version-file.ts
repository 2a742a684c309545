import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveManifestLibrary } from '../../native-bridge/library-resolver';

/**
 * The installed loader's version read from its file name, without loading it: on Linux the loader
 * is installed as libvulkan.so.1 → libvulkan.so.1.MINOR.PATCH (every distribution and the Khronos
 * build name it so), found the way dlopen finds "libvulkan.so.1" (LD_LIBRARY_PATH, the linker cache,
 * the default folders; the ld.so cache is read from its file, shared/vulkan/ld-so-cache.ts). The
 * number is the one the loader's vkEnumerateInstanceVersion reports: the loader's build names the
 * file after the same headers' version (its CMake VERSION) that it returns. Used where asking the
 * loader itself costs too much for what it gives: the lint's verdicts in discovery (loading the
 * loader would make it scan every implicit manifest) and `strata explain`'s installed loader (koffi
 * and the loader's own start, ~15 ms of the command; issue #19).
 * Null when the name says nothing (another platform, a renamed file, no loader).
 */
export function loaderVersionFromFileName(env: NodeJS.ProcessEnv = process.env): string | null {
  const found = resolveManifestLibrary('/', 'libvulkan.so.1', env);
  if (!found?.path || found.outcome !== 'ok') return null;
  try {
    const m = /^libvulkan\.so\.(\d+\.\d+\.\d+)$/.exec(basename(realpathSync(found.path)));
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}
