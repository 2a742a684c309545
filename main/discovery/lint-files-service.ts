import { readdirEntriesAsync, statAsync } from '../platform/fs-async';
import { basename, join, resolve } from 'node:path';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, roleFromPath, type ManifestRole } from '../../shared/lint/manifest-lint';
import { lintManifestSet } from '../../shared/lint/manifest-set-lint';
import type { FileDiagnostics } from '../../shared/lint/diagnostic-schema';
import type { ParsedManifest } from '../../shared/manifest/manifest-model';
import { serviceError } from '../../shared/errors/strata-error';
import { diagnosticCodes } from '../../shared/lint/diagnostic-codes';
import { strataDiagnostic } from '../../shared/lint/strata-diagnostic';
import { GuardedReadError, readTextGuarded } from '../platform/guarded-read';
import { libraryLookup } from './library-check';
import { lintLoaderSettings } from '../../shared/lint/loader-settings-lint';
import { settingsManifestPaths } from '../../shared/loader/chain-settings';
import { SETTINGS_FILE_NAME } from '../../shared/loader/settings-file-locations';
import { settingsFileFor } from '../chain/settings-file-found';

/** The folders the loader's search paths end in ("Linux Layer Discovery": `<dir>/vulkan/icd.d` …). */
const LOADER_FOLDERS = ['implicit_layer.d', 'explicit_layer.d', 'icd.d'];

/**
 * A folder's *.json, sorted, then those of the loader's folders below it: `vulkan/` and the three
 * `*.d` folders, so a prefix (/usr/share, /usr/share/vulkan) lints what the loader would read
 * there, and other JSON under it (Vulkan's registry/, profiles/) is left alone.
 */
async function manifestsIn(folder: string): Promise<string[]> {
  const entries = await readdirEntriesAsync(folder, { withFileTypes: true }).catch(() => []);
  const files = entries
    .filter((e) => e.name.endsWith('.json') && !e.isDirectory())
    .map((e) => join(folder, e.name))
    .sort();
  const next = folder.endsWith('/vulkan') || folder === 'vulkan' ? LOADER_FOLDERS : ['vulkan', ...LOADER_FOLDERS];
  const below = await Promise.all(
    next.filter((n) => entries.some((e) => e.name === n && (e.isDirectory() || e.isSymbolicLink()))).map((n) => manifestsIn(join(folder, n))),
  );
  return [...files, ...below.flat()];
}

/** Files named on the command line (or dropped in the UI); folders as manifestsIn reads them. */
async function expand(paths: readonly string[], cwd: string): Promise<{ uri: string; named: boolean }[]> {
  const out: { uri: string; named: boolean }[] = [];
  for (const p of paths) {
    const full = resolve(cwd, p);
    const st = await statAsync(full).catch(() => null);
    if (!st) throw serviceError('lint/no-such-file', `No such file or folder: ${p}`, { where: full, fix: 'check the path' });
    if (st.isDirectory()) {
      const found = await manifestsIn(full);
      if (found.length === 0) {
        throw serviceError(
          'lint/no-manifests',
          `No *.json manifest in ${p}, nor in a vulkan/, implicit_layer.d/, explicit_layer.d/ or icd.d/ folder below it`,
          {
            where: full,
            fix: 'name a manifest, or a folder of them such as /usr/share/vulkan/icd.d',
          },
        );
      }
      out.push(...found.map((uri) => ({ uri, named: false })));
    } else out.push({ uri: full, named: true });
  }
  return out;
}

/** Where a file was not found by discovery, guess its role: the folder name, else what it holds. */
function roleOf(path: string, parsed: ParsedManifest): ManifestRole {
  const byPath = roleFromPath(path);
  if (byPath !== 'unknown') return byPath;
  return parsed.manifest?.kind === 'driver' ? 'driver' : 'unknown';
}

/**
 * `lint.files`: lint the given manifests (and folders of them) as one set, in the order given. Each
 * "library_path" is resolved and opened as the loader of a process with environment `env` (its
 * LD_LIBRARY_PATH) would (library-check.ts).
 */
export async function lintFiles(
  request: { paths: string[]; settingsFile?: boolean | undefined },
  cwd: string = process.cwd(),
  loaderVersion: string | null = null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FileDiagnostics[]> {
  const files = await expand(request.paths, cwd);
  // With settingsFile, the loader settings file the installed loader reads (when there is one) is linted too.
  if (request.settingsFile) {
    const found = await settingsFileFor({ env, loaderVersion });
    if (found && !files.some((f) => f.uri === found)) files.push({ uri: found, named: false });
  }
  const settings = files.filter((f) => basename(f.uri) === SETTINGS_FILE_NAME);
  if (settings.length) files.splice(0, files.length, ...files.filter((f) => basename(f.uri) !== SETTINGS_FILE_NAME));
  // Every file through the guarded reader: a device, FIFO or socket, or a file over the manifest cap,
  // named on the command line is an error; found in a folder, it is that file's diagnostic and the rest are linted.
  const read = await Promise.all(
    files.map(async ({ uri, named }) => {
      try {
        const text = await readTextGuarded(uri, 'manifest');
        return { uri, parsed: parseManifest(text), unreadable: null };
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        const message = e instanceof GuardedReadError ? e.message : `Cannot read ${uri}: ${err.code ?? err.message}`;
        if (named) throw serviceError('lint/unreadable', message, { where: uri, fix: e instanceof GuardedReadError ? e.fix : 'check its permissions' });
        return { uri, parsed: null, unreadable: message };
      }
    }),
  );
  const parsed = read.flatMap((r) => (r.parsed ? [{ uri: r.uri, parsed: r.parsed }] : []));
  const at0 = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const libraries = libraryLookup(env, cwd);
  const results = read.map(({ uri, parsed: p, unreadable }) => ({
    uri,
    diagnostics: p
      ? lintManifest(p, { role: roleOf(uri, p), loaderVersion, path: uri, libraries })
      : [
          strataDiagnostic(
            diagnosticCodes,
            'manifest/unreadable',
            at0,
            `${unreadable}; Strata does not lint it. Fix: remove it or point it at a real manifest.`,
          ),
        ],
  }));
  const byUri = new Map(results.map((r) => [r.uri, r]));
  for (const { uri, diagnostic } of lintManifestSet(parsed)) byUri.get(uri)?.diagnostics.push(diagnostic);
  for (const f of settings) results.push({ uri: f.uri, diagnostics: await lintSettingsFile(f.uri, f.named, loaderVersion) });
  return results as FileDiagnostics[];
}

/** A vk_loader_settings.json for the given loader, with the manifests its entries name read through the guarded reader. */
async function lintSettingsFile(uri: string, named: boolean, loaderVersion: string | null): Promise<FileDiagnostics['diagnostics']> {
  let text: string;
  try {
    text = await readTextGuarded(uri, 'settings');
  } catch (e) {
    const message = e instanceof GuardedReadError ? e.message : `Cannot read ${uri}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
    if (named) throw serviceError('lint/unreadable', message, { where: uri, fix: 'check its permissions' });
    const at0 = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return [strataDiagnostic(diagnosticCodes, 'settings/not-read', at0, `${message}; the loader cannot read it either. Fix: remove it or make it readable.`)];
  }
  const manifests = new Map<string, string | null>();
  for (const p of settingsManifestPaths(text)) manifests.set(p, await readTextGuarded(p, 'manifest').catch(() => null));
  return lintLoaderSettings(text, { loaderVersion, manifests });
}
