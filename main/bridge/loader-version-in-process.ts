import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { computeSearchPaths, platformFromNodeName } from '../../shared/loader/search-paths';
import { currentUser } from '../discovery/current-user';
import { GuardedReadError, readGuardedSync } from '../platform/guarded-read';
import { excessiveNesting, JSON_NESTING_LIMIT } from '../../shared/json/json-nesting';
import { queryLoaderVersion, type LoaderVersionReport } from '../../native-bridge/loader-library';

/**
 * `loader.version` answered in this process, without starting the probe (issue #19: `strata info`
 * paid a second Node start for one number), but only when the loader cannot load any other library
 * while answering.
 *
 * What vkEnumerateInstanceVersion loads (loader sources, trampoline.c, 1.3.239 to 1.4.359): the
 * trampoline scans the implicit layer manifests (loader_scan_for_implicit_layers) and dlopens the
 * library of each enabled implicit layer whose manifest names a `pre_instance_functions`
 * `vkEnumerateInstanceVersion`; the terminator itself returns the loader's header version and
 * touches no driver. So when no implicit layer manifest the loader reads mentions
 * pre_instance_functions, the call maps libvulkan alone. Anything that can load a third-party
 * library (vkEnumerateInstanceExtensionProperties scans and loads every driver, devices, negotiate,
 * inspect) stays in the probe.
 *
 * The check is deliberately wider than the loader's rule (any implicit manifest, enabled or not;
 * a manifest that cannot be read, or that escapes characters with \u, counts as naming one), and
 * Linux only (where discovery's search paths are proven against the real loader). VK_LOADER_DEBUG
 * keeps the probe too: its log belongs on the probe's stderr, not the CLI's.
 */
export function inProcessBlocker(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux') return `platform ${platform}`;
  if (env['VK_LOADER_DEBUG']) return 'VK_LOADER_DEBUG is set';
  // Newer loaders' extra implicit-layer variables: not modelled by the search paths, so not in process.
  for (const name of Object.keys(env)) if (/^VK_.*IMPLICIT/.test(name) && env[name]) return `${name} is set`;
  const user = currentUser(env);
  if (user.elevated) return 'elevated';
  for (const loc of computeSearchPaths({ platform: platformFromNodeName(platform), env, user }).implicit_layer) {
    let files: string[];
    if (loc.entry === 'file') files = [loc.path];
    else if (loc.entry === 'folder') {
      try {
        files = readdirSync(loc.path)
          .filter((f) => f.toLowerCase().endsWith('.json'))
          .map((f) => join(loc.path, f));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') continue;
        return `${loc.path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
      }
    } else return `${loc.path}: ${loc.entry}`;
    for (const file of files) {
      let text: string;
      try {
        // Through the guarded reader: a FIFO here once hung `strata info`, a link to /dev/zero took it to 3 GB.
        text = readGuardedSync(file, 'manifest').toString('latin1');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
        // A device, FIFO or file over the cap: the probe answers, and what the real loader does with it is its own.
        if (e instanceof GuardedReadError) return e.message;
        return `${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
      }
      if (text.includes('pre_instance_functions') || text.includes('\\u')) return `${file} may name pre_instance_functions`;
      // 1.3.x loaders' cJSON recurses without a limit: such a file crashes the loader, so the probe, never this process, reads it.
      if (excessiveNesting(text) !== null) return `${file} nests JSON deeper than ${JSON_NESTING_LIMIT} levels`;
    }
  }
  return null;
}

/** The loader's version from this process, or null when the probe must answer (see inProcessBlocker), or when this fails here. */
export function loaderVersionInProcess(env: NodeJS.ProcessEnv): LoaderVersionReport | null {
  if (inProcessBlocker(env) !== null) return null;
  try {
    return queryLoaderVersion();
  } catch {
    // No loader, or koffi cannot load here: the probe answers, with the error text users know.
    return null;
  }
}
