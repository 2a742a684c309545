#!/usr/bin/env node
// `npm start`: install what is missing, build if sources changed, then open the desktop window —
// or, where Electron's binary or a display is missing, the browser host, printing its URL.
// Extra arguments go to `strata serve` (e.g. `npm start -- --port 8080`).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSetup } from './ensure-setup.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line) => process.stderr.write(`strata: ${line}\n`);

if (!ensureSetup('start')) process.exit(1);
const { buildIfStale } = await import('./build.mjs');
await buildIfStale();

/** The Electron binary's path, or the reason there is none (its install script needs network access). */
function electronBinary() {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return { reason: "Electron's binary is not installed (it is downloaded by Electron's install script, which could not run here)" };
  const binary = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary } : { reason: `Electron's binary is missing (${binary})` };
}

function hasDisplay() {
  if (process.platform === 'win32' || process.platform === 'darwin') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function serve(reason) {
  say(`${reason}; starting the browser host instead.`);
  const args = [join(root, 'bin', 'strata'), 'serve', ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

const electron = electronBinary();
if (!electron.binary) serve(electron.reason);
else if (!hasDisplay()) serve('no display (DISPLAY and WAYLAND_DISPLAY are unset)');
else {
  const started = Date.now();
  const child = spawn(electron.binary, [root], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => {
    // An Electron that dies at once (missing shared libraries, no GPU process) is not the user
    // quitting: fall back rather than leave them with nothing.
    if (code !== 0 && Date.now() - started < 5000) serve(`Electron exited with code ${code} at start`);
    else process.exit(code ?? 0);
  });
}
