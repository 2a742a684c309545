/**
 * A dedicated writer process for tests/integration/override-writer.test.ts, bundled there with
 * esbuild so that it starts in a few tens of milliseconds (no tsx). It uses the real writer in the
 * environment it is given (HOME / XDG_*):
 *
 *   override-worker loop A.json B.json     print "ready"; on a line on stdin, apply A, B, A, B … until killed
 *   override-worker serial ID N X.json     apply X N times; per apply print "lock ID START END"
 *                                           (process.hrtime, ns) for the time it held the lock
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { applyOverride, applyOverrideLocked, overrideLocation } from '../../main/override/override-writer';
import { withLock } from '../../main/platform/file-lock';

const [mode, ...args] = process.argv.slice(2);
const loc = overrideLocation('user', process.env, process.env['HOME'] || homedir());

if (mode === 'loop') {
  const texts = args.map((f) => readFileSync(f, 'utf8'));
  process.stdout.write('ready\n');
  // Started ahead of time by the test; it must not write until its turn ("go" on stdin).
  process.stdin.once('data', () => {
    for (let i = 0; ; i++) applyOverride(loc, texts[i % texts.length]!);
  });
} else if (mode === 'serial') {
  const [id, n, file] = args;
  const text = readFileSync(file!, 'utf8');
  applyOverride(loc, text); // creates the folders
  for (let i = 0; i < Number(n); i++) {
    withLock(loc.lockFile, () => {
      const start = process.hrtime.bigint();
      applyOverrideLocked(loc, text);
      const end = process.hrtime.bigint();
      process.stdout.write(`lock ${id} ${start} ${end}\n`);
    });
  }
} else {
  process.stderr.write('usage: override-worker loop A.json B.json | serial ID N X.json\n');
  process.exit(2);
}
