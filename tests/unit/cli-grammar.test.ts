/**
 * The CLI's one grammar (docs/cli.md): every deprecated spelling rewrites to a command that exists,
 * no deprecated word is a command of its own, and the nouns are those the grammar table names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { buildProgram } from '../../main/hosts/cli/cli';
import { currentSpelling, DEPRECATED_SPELLINGS } from '../../main/hosts/cli/cli-grammar';

const program = buildProgram('0.0.0');

/** The command that `words` name, or undefined. */
function commandAt(words: readonly string[]): Command | undefined {
  let at: Command | undefined = program;
  for (const w of words) at = at?.commands.find((c) => c.name() === w || c.aliases().includes(w));
  return at;
}

test('the top level holds the grammar table: the main actions, and nouns that each have verbs', () => {
  const top = program.commands.map((c) => c.name()).sort();
  assert.deepEqual(top, [
    'device',
    'driver',
    'env',
    'explain',
    'info',
    'launch',
    'layer',
    'lint',
    'loader',
    'override',
    'path',
    'profile',
    'serve',
    'session',
    'settings',
    'shader',
  ]);
  const actions = new Set(['explain', 'info', 'launch', 'lint', 'serve']);
  for (const c of program.commands) {
    if (actions.has(c.name())) assert.equal(c.commands.length, 0, `${c.name()} is an action, not a noun`);
    else assert.ok(c.commands.length > 0, `${c.name()} is a noun: it needs a verb`);
  }
});

test('every deprecated spelling rewrites to a command that exists; no old word is a command any more', () => {
  for (const d of DEPRECATED_SPELLINGS) {
    assert.ok(commandAt(d.now), `"${d.now.join(' ')}" is not a command`);
    assert.ok(!program.commands.some((c) => c.name() === d.old[0] && d.old[0] !== d.now[0]), `"${d.old[0]}" is still a command`);
    const spelled = currentSpelling([...d.old, '--json']);
    assert.deepEqual(spelled.argv, [...d.now, '--json']);
    assert.match(spelled.notice ?? '', new RegExp(`^strata: "${d.old.join(' ')}" is deprecated; use "${d.now.join(' ')}"`));
  }
});

test('the deprecation line names the verb a bare old noun was given, and the rest of the line is kept', () => {
  assert.deepEqual(currentSpelling(['sessions', 'rm', 'a', 'b']), {
    argv: ['session', 'delete', 'a', 'b'],
    notice: 'strata: "sessions rm" is deprecated; use "session delete" (the old spelling goes away in the next release)\n',
  });
  assert.deepEqual(currentSpelling(['sessions', 'show', 'latest', '--json']).argv, ['session', 'show', 'latest', '--json']);
  assert.match(currentSpelling(['sessions', 'show', 'latest']).notice ?? '', /"sessions show" is deprecated; use "session show"/);
  assert.match(currentSpelling(['layers', '--help']).notice ?? '', /"layers" is deprecated; use "layer"/);
  // `strata help OLD`, commander's help command.
  assert.deepEqual(currentSpelling(['help', 'drivers', 'list']).argv, ['help', 'driver', 'list']);
});

test('the current spellings pass unchanged and print nothing', () => {
  for (const argv of [
    ['loader', 'show', '--json'],
    ['env', 'show'],
    ['session', 'delete', 'x'],
    ['explain', '--json'],
    ['layer', 'list'],
    ['lint', 'env'],
    [],
  ]) {
    assert.deepEqual(currentSpelling(argv), { argv });
  }
  // An option value that happens to be an old word is not a command.
  assert.deepEqual(currentSpelling(['explain', '--app', 'loader']), { argv: ['explain', '--app', 'loader'] });
});

test('every IPC channel is named noun.verb in lower camel case, as docs/architecture.md says', async () => {
  const { channels } = await import('../../shared/ipc/contract');
  const bad = Object.keys(channels).filter((name) => !/^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/.test(name));
  assert.deepEqual(bad, []);
});
