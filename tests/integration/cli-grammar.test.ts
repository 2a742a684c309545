/**
 * The one grammar as a user meets it (the built bin/strata): every spelling from before it still
 * works for one release, with the same output and exit code as the new one and one deprecation line
 * on stderr; the shared `-o` writer fails with one clear error.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';

const home = makeTempHome();
after(() => home.cleanup());

const notice = (old: string, now: string) => `strata: "${old}" is deprecated; use "${now}" (the old spelling goes away in the next release)\n`;

/** Old and new spellings side by side: [old args, new args, the words the notice names]. */
const PAIRS: [string[], string[], string, string][] = [
  [['sessions', 'list', '--json'], ['session', 'list', '--json'], 'sessions list', 'session list'],
  [['sessions', 'rm', 'no-such-session'], ['session', 'delete', 'no-such-session'], 'sessions rm', 'session delete'],
  [['sessions', 'show', 'latest'], ['session', 'show', 'latest'], 'sessions show', 'session show'],
  [['layers', 'list', '--json'], ['layer', 'list', '--json'], 'layers list', 'layer list'],
  [['layers', 'inspect', '--help'], ['layer', 'inspect', '--help'], 'layers inspect', 'layer inspect'],
  [['drivers', 'list', '--json'], ['driver', 'list', '--json'], 'drivers list', 'driver list'],
  [['drivers', 'negotiate', '--help'], ['driver', 'negotiate', '--help'], 'drivers negotiate', 'driver negotiate'],
  [['devices', '--help'], ['device', 'list', '--help'], 'devices', 'device list'],
  [['loader', '--help'], ['loader', 'show', '--help'], 'loader', 'loader show'],
  [['paths', '--json'], ['path', 'list', '--json'], 'paths', 'path list'],
  [['env', '--json'], ['env', 'show', '--json'], 'env', 'env show'],
];

test("every old spelling: the new command's output and exit code, and one deprecation line on stderr", () => {
  for (const [old, now, oldWords, nowWords] of PAIRS) {
    const a = runStrata(old, home.env);
    const b = runStrata(now, home.env);
    const what = `strata ${old.join(' ')}`;
    assert.equal(a.status, b.status, `${what}: exit ${a.status}, new spelling ${b.status}\n${a.stderr}`);
    assert.equal(a.stdout, b.stdout, what);
    assert.equal(a.stderr, notice(oldWords, nowWords) + b.stderr, what);
    assert.ok(!b.stderr.includes('deprecated'), `strata ${now.join(' ')} says it is deprecated`);
  }
});

test("an old spelling with a usage error points to the new command's help", () => {
  const r = runStrata(['drivers', 'negotiate', '--timeout', 'soon'], home.env);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.split('\n')[0] + '\n', notice('drivers negotiate', 'driver negotiate'));
  assert.match(r.stderr.split('\n')[1] ?? '', /^strata: .*Fix: see `strata driver --help`$/);
});

test('--help lists the nouns of the grammar and none of the old spellings; shader dis stays the short form of disassemble', () => {
  const r = runStrata(['--help'], home.env);
  assert.equal(r.status, 0, r.stderr);
  for (const noun of ['layer', 'driver', 'device', 'path', 'loader', 'env', 'session', 'profile', 'override', 'settings', 'shader'])
    assert.match(r.stdout, new RegExp(`^  ${noun}\\b`, 'm'), noun);
  for (const old of ['layers', 'drivers', 'devices', 'paths', 'sessions']) assert.doesNotMatch(r.stdout, new RegExp(`^  ${old}\\b`, 'm'), old);
  const shader = runStrata(['shader', '--help'], home.env);
  assert.match(shader.stdout, /^ {2}disassemble\|dis /m);
  const dis = runStrata(['shader', 'dis', '--help'], home.env);
  assert.equal(dis.stderr, '', 'dis is not deprecated');
  assert.equal(
    dis.stdout.replace('disassemble|dis', 'disassemble'),
    runStrata(['shader', 'disassemble', '--help'], home.env).stdout.replace('disassemble|dis', 'disassemble'),
  );
});

test('-o that cannot be written: one error naming the file and the fix, exit 1, for every command that writes one', () => {
  const missing = join(home.dir, 'no-such-folder', 'out.json');
  const readOnly = join(home.dir, 'read-only');
  mkdirSync(readOnly, { mode: 0o500 });
  for (const args of [
    ['profile', 'export', 'Validation — standard', '-o', missing],
    ['override', 'export', '--profile', 'Validation — standard', '-o', missing],
  ]) {
    const r = runStrata(args, home.env);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, `strata: Cannot write the file: ENOENT (${missing}). Fix: create its folder first, or choose another path for -o\n`);
    assert.equal(existsSync(missing), false);
  }
  // Root writes anywhere: the permission case is checked only where a folder's mode still means something.
  if (process.getuid?.() !== 0) {
    const target = join(readOnly, 'p.json');
    const r = runStrata(['profile', 'export', 'Validation — standard', '-o', target], home.env);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, `strata: Cannot write the file: EACCES (${target}). Fix: choose a writable path for -o\n`);
  }
});
