import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, roleFromPath, type ManifestRole } from '../../shared/lint/manifest-lint';
import { lintManifestSet } from '../../shared/lint/manifest-set-lint';
import type { FileDiagnostics } from '../../shared/lint/diagnostic-schema';
import type { ParsedManifest } from '../../shared/manifest/manifest-model';
import { StrataRequestError, strataError } from '../../shared/errors/strata-error';

/** Files named on the command line (or dropped in the UI): folders give their *.json, sorted. */
async function expand(paths: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const full = resolve(cwd, p);
    const st = await stat(full).catch(() => null);
    if (!st) throw new StrataRequestError(strataError('lint/no-such-file', `No such file or folder: ${p}`, { where: full, fix: 'check the path' }));
    if (st.isDirectory()) {
      const names = (await readdir(full)).filter((n) => n.endsWith('.json')).sort();
      out.push(...names.map((n) => join(full, n)));
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
