#!/usr/bin/env node
// `npm test`: install what is missing, build, then run every test under node's test runner, so the
// run ends with its summary. `npm test -- tests/unit` runs a subset (files or folders).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSetup } from './ensure-setup.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

if (!ensureSetup('test')) process.exit(1);
const { buildAll } = await import('./build.mjs');
await buildAll();

function testFiles(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((entry) => (entry === 'fixtures' || entry === 'artifacts' ? [] : testFiles(join(path, entry))))
    .filter((f) => /\.test\.ts$/.test(f));
}

const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['tests/unit', 'tests/integration', 'tests/e2e'];
const files = targets.flatMap((t) => testFiles(join(root, t))).map((f) => relative(root, f));
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
