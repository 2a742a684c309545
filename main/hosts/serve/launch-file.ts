import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LaunchFile {
  /** file:// URL of the page; the only thing that goes on the opener's command line. */
  url: string;
  path: string;
  remove(): void;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page `strata serve --open` hands the browser: a file only this user can read (0600 in a 0700
 * folder made by mkdtemp) that forwards to `target` (which carries a one-time code in its fragment).
 * The opener's argv, visible to every user in /proc, holds only this file's path.
 */
export function writeLaunchFile(target: string, dir: string = tmpdir()): LaunchFile {
  const folder = mkdtempSync(join(dir, 'strata-open-'));
  const path = join(folder, 'open-strata.html');
  const href = escapeHtml(target);
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Opening Strata…</title>
<meta http-equiv="refresh" content="0; url=${href}">
<script>location.replace(${JSON.stringify(target).replace(/</g, '\\u003c')});</script>
</head><body><p><a href="${href}">Open Strata</a></p></body></html>
`;
  writeFileSync(path, html, { mode: 0o600, flag: 'wx' });
  return { url: pathToFileURL(path).href, path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
