import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CA_CERTS_SET_ASIDE,
  CA_CERTS_VARIABLE,
  restoreNodeEnvironment,
  SHELL_TUNABLES,
  TUNABLES_ADDED,
  TUNABLES_VARIABLE,
} from '../../main/hosts/cli/node-environment';

// main/hosts/cli/node-environment.ts: bin/strata hands NODE_EXTRA_CA_CERTS to Node under another name
// (Node reads the file at every start); the CLI puts it back before anything reads its environment.
test('the set-aside value goes back under its own name, and the other name goes', () => {
  const env: NodeJS.ProcessEnv = { [CA_CERTS_SET_ASIDE]: '/etc/ssl/extra.pem', PATH: '/bin' };
  restoreNodeEnvironment(env);
  assert.deepEqual(env, { [CA_CERTS_VARIABLE]: '/etc/ssl/extra.pem', PATH: '/bin' });
});

test('an empty value is a value: set back as empty', () => {
  const env: NodeJS.ProcessEnv = { [CA_CERTS_SET_ASIDE]: '' };
  restoreNodeEnvironment(env);
  assert.deepEqual(env, { [CA_CERTS_VARIABLE]: '' });
});

test('nothing set aside (Node started some other way): the environment is left as it is', () => {
  const env: NodeJS.ProcessEnv = { [CA_CERTS_VARIABLE]: '/a.pem', HOME: '/home/u' };
  restoreNodeEnvironment(env);
  assert.deepEqual(env, { [CA_CERTS_VARIABLE]: '/a.pem', HOME: '/home/u' });
});

test('both names set (a user who set both, started without the shell part): theirs stays', () => {
  const env: NodeJS.ProcessEnv = { [CA_CERTS_SET_ASIDE]: '/aside.pem', [CA_CERTS_VARIABLE]: '/theirs.pem' };
  restoreNodeEnvironment(env);
  assert.deepEqual(env, { [CA_CERTS_VARIABLE]: '/theirs.pem' });
});

test('GLIBC_TUNABLES the shell part added goes, with the note that it did', () => {
  const env: NodeJS.ProcessEnv = { [TUNABLES_VARIABLE]: SHELL_TUNABLES, [TUNABLES_ADDED]: '1', PATH: '/bin' };
  restoreNodeEnvironment(env);
  assert.deepEqual(env, { PATH: '/bin' });
});

test("GLIBC_TUNABLES of the user's stays: without the note, or changed from the shell part's", () => {
  const own: NodeJS.ProcessEnv = { [TUNABLES_VARIABLE]: SHELL_TUNABLES };
  restoreNodeEnvironment(own);
  assert.deepEqual(own, { [TUNABLES_VARIABLE]: SHELL_TUNABLES });
  const other: NodeJS.ProcessEnv = { [TUNABLES_VARIABLE]: 'glibc.malloc.arena_max=2', [TUNABLES_ADDED]: '1' };
  restoreNodeEnvironment(other);
  assert.deepEqual(other, { [TUNABLES_VARIABLE]: 'glibc.malloc.arena_max=2' });
});
