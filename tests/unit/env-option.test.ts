import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command, CommanderError } from 'commander';
import { envOption, envOverrides, envRequest, unsetOption } from '../../main/hosts/cli/env-option';

/**
 * main/hosts/cli/env-option.ts: the one `--env NAME=VALUE` / `--unset NAME` grammar of every command,
 * parsed by commander as the CLI parses it. Set-but-empty and unset stay apart (the loader treats a
 * disable_environment variable set to "" as set); --unset wins; a malformed option is a usage error.
 */
function parse(args: string[]) {
  const program = new Command()
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined })
    .option(...envOption('the probe'))
    .option(...unsetOption('the probe'));
  program.parse(args, { from: 'user' });
  return program.opts<{ env?: Record<string, string>; unset?: string[] }>();
}

test('--env sets (NAME= is the empty string, a value may hold "="), --unset removes and wins, both repeatable', () => {
  const opts = parse([
    '--env',
    'VK_DRIVER_FILES=/a.json:/b.json',
    '--env',
    'DISABLE_X=',
    '--env',
    'Q=a=b',
    '--unset',
    'VK_ICD_FILENAMES',
    '--env',
    'DROP=1',
    '--unset',
    'DROP',
  ]);
  assert.deepEqual(envOverrides(opts), { VK_DRIVER_FILES: '/a.json:/b.json', DISABLE_X: '', Q: 'a=b', VK_ICD_FILENAMES: null, DROP: null });
  assert.deepEqual(parse(['--env', 'A=1', '--env', 'A=2']).env, { A: '2' }, 'the last --env of a name wins');
});

test('a malformed --env or --unset is a usage error that says the grammar', () => {
  for (const bad of [
    ['--env', 'NOEQUALS'],
    ['--env', '=value'],
    ['--env', '1BAD=x'],
    ['--env', 'A-B=x'],
    ['--unset', 'A=B'],
    ['--unset', ''],
  ]) {
    assert.throws(
      () => parse(bad),
      (e) => e instanceof CommanderError && e.code === 'commander.invalidArgument' && /expected (NAME=VALUE|a variable name)/.test(e.message),
      bad.join(' '),
    );
  }
});

test('envRequest: { env } only when something was given; --json and other options do not count', () => {
  assert.deepEqual(envRequest({ json: true }), {});
  assert.deepEqual(envRequest({ env: {}, unset: [] }), {});
  assert.deepEqual(envRequest({ unset: ['X'] }), { env: { X: null } });
  assert.deepEqual(envRequest({ env: { X: '' } }), { env: { X: '' } });
});
