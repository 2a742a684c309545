import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aheadRequest, startEarlyProbe, startsWithProbeCommand } from '../../main/hosts/cli/early-probe';

/**
 * main/hosts/cli/early-probe.ts: which command lines bin/strata starts the default probe for before
 * the CLI loads (issue #19). The commands whose first call asks the default probe, in the current
 * grammar and in the older spellings the CLI still rewrites; never a help page, never another command.
 */
test('loader show and device list, in every spelling the CLI accepts, start the probe early', () => {
  for (const argv of [
    ['loader', 'show'],
    ['loader', 'show', '--json'],
    ['loader', 'show', '--env', 'VK_LOADER_DEBUG=all'],
    ['loader'],
    ['loader', '--json'],
    ['device', 'list'],
    ['devices'],
    ['devices', '--json'],
  ]) {
    assert.equal(startsWithProbeCommand(argv), true, argv.join(' '));
  }
});

test('other commands, help pages and near misses do not', () => {
  for (const argv of [
    [],
    ['--version'],
    ['info'],
    ['explain'],
    ['layer', 'list'],
    ['device'],
    ['loader', 'show', '--help'],
    ['device', 'list', '-h'],
    ['help', 'loader', 'show'],
    ['driver', 'negotiate'],
    ['show', 'loader'],
  ]) {
    assert.equal(startsWithProbeCommand(argv), false, argv.join(' '));
  }
});

test('startEarlyProbe starts nothing for a command that does not ask the probe', async () => {
  assert.equal(await startEarlyProbe(['explain', '--json'], '/nonexistent'), null);
});

test('loader show sends the probe its one request at once; device list, whose request names what discovery finds, does not', () => {
  for (const argv of [['loader', 'show'], ['loader', 'show', '--json'], ['loader'], ['loader', '--json']])
    assert.deepEqual(aheadRequest(argv), { method: 'loader.info' }, argv.join(' '));
  for (const argv of [['device', 'list'], ['devices'], ['loader', 'show', '--help'], ['explain'], []]) assert.equal(aheadRequest(argv), null, argv.join(' '));
});
