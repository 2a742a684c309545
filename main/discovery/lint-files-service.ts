import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, roleFromPath, type ManifestRole } from '../../shared/lint/manifest-lint';
import { lintManifestSet } from '../../shared/lint/manifest-set-lint';
import type { FileDiagnostics } from '../../shared/lint/diagnostic-schema';
import type { ParsedManifest } from '../../shared/manifest/manifest-model';
import { StrataRequestError, strataError } from '../../shared/errors/strata-error';

/** The folders the loader's search paths end in ("Linux Layer Discovery": `<dir>/vulkan/icd.d` …). */
const LOADER_FOLDERS = ['implicit_layer.d', 'explicit_layer.d', 'icd.d'];

/**
 * A folder's *.json, sorted, then those of the loader's folders below it: `vulkan/` and the three
 * `*.d` folders, so a prefix (/usr/share, /usr/share/vulkan) lints what the loader would read
 * there, and other JSON under it (Vulkan's registry/, profiles/) is left alone.
 */
async function manifestsIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.name.endsWith('.json') && !e.isDirectory()).map((e) => join(folder, e.name)).sort();
  const next = folder.endsWith('/vulkan') || folder === 'vulkan' ? LOADER_FOLDERS : ['vulkan', ...LOADER_FOLDERS];
  const below = await Promise.all(next.filter((n) => entries.some((e) => e.name === n && (e.isDirectory() || e.isSymbolicLink()))).map((n) => manifestsIn(join(folder, n))));
  return [...files, ...below.flat()];
}

/** Files named on the command line (or dropped in the UI); folders as manifestsIn reads them. */
async function expand(paths: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const full = resolve(cwd, p);
    const st = await stat(full).catch(() => null);
    if (!st) throw new StrataRequestError(strataError('lint/no-such-file', `No such file or folder: ${p}`, { where: full, fix: 'check the path' }));
    if (st.isDirectory()) {
      const found = await manifestsIn(full);
      if (found.length === 0) {
        throw new StrataRequestError(
          strataError('lint/no-manifests', `No *.json manifest in ${p}, nor in a vulkan/, implicit_layer.d/, explicit_layer.d/ or icd.d/ folder below it`, {
            where: full,
            fix: 'name a manifest, or a folder of them such as /usr/share/vulkan/icd.d',
          }),
        );
      }
      out.push(...found);
    } else out.push(full);
  }
  return out;
}

/** Where a file was not found by discovery, guess its role: the folder name, else what it holds. */
function roleOf(path: string, parsed: ParsedManifest): ManifestRole {
  const byPath = roleFromPath(path);
  if (byPath !== 'unknown') return byPath;
  return parsed.manifest?.kind === 'driver' ? 'driver' : 'unknown';
}

/** `lint.files`: lint the given manifests (and folders of them) as one set, in the order given. */
export async function lintFiles(request: { paths: string[] }, cwd: string = process.cwd()): Promise<FileDiagnostics[]> {
  const files = await expand(request.paths, cwd);
  const parsed = await Promise.all(
    files.map(async (uri) => {
      const text = await readFile(uri, 'utf8').catch((e: NodeJS.ErrnoException) => {
        throw new StrataRequestError(strataError('lint/unreadable', `Cannot read ${uri}: ${e.code ?? e.message}`, { where: uri, fix: 'check its permissions' }));
      });
      return { uri, parsed: parseManifest(text) };
    }),
  );
  const results = parsed.map(({ uri, parsed: p }) => ({ uri, diagnostics: lintManifest(p, { role: roleOf(uri, p) }) }));
  const byUri = new Map(results.map((r) => [r.uri, r]));
  for (const { uri, diagnostic } of lintManifestSet(parsed)) byUri.get(uri)?.diagnostics.push(diagnostic);
  return results as FileDiagnostics[];
}
