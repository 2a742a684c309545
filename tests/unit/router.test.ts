import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRouter, type Handlers } from '../../main/router/router';
import { channels } from '../../shared/ipc/contract';
import type { AppInfo } from '../../shared/app/app-info';
import { countingHandlers } from '../helpers/counting-handlers';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { answerMode } from '../../main/hosts/cli/cli-channel';

const handlers = (overrides: Partial<Handlers> = {}) => {
  const { handlers: h, calls } = countingHandlers(overrides);
  return { h, calls };
};

test('serves every channel of the contract, and only those', () => {
  const router = createRouter(handlers().h);
  assert.deepEqual([...router.channelNames].sort(), Object.keys(channels).sort());
});

test('a valid call returns the handler value and passes the host context', async () => {
  const { h, calls } = handlers();
  const result = await createRouter(h).call('app.info', {}, { host: 'browser' });
  assert.equal(result.ok, true);
  assert.equal(result.ok && (result.value as AppInfo).host, 'browser');
  assert.deepEqual(calls, ['app.info']);
});

test('an absent payload is treated as an empty request', async () => {
  const result = await createRouter(handlers().h).call('env.summary', undefined, { host: 'cli' });
  assert.equal(result.ok, true);
});

test('unknown channel: error value naming the channels that exist, no handler runs', async () => {
  const { h, calls } = handlers();
  const result = await createRouter(h).call('app.delete', {}, { host: 'cli' });
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, 'ipc/unknown-channel');
  assert.match(!result.ok ? (result.error.fix ?? '') : '', /app\.info/);
  assert.deepEqual(calls, []);
});

test('prototype keys are not channels', async () => {
  const result = await createRouter(handlers().h).call('constructor', {}, { host: 'cli' });
  assert.equal(!result.ok && result.error.code, 'ipc/unknown-channel');
});

for (const [label, payload] of [
  ['an unknown field', { verbose: true }],
  ['a non-object', 'hello'],
  ['an array', []],
] as const) {
  test(`invalid request (${label}) is refused before the handler runs`, async () => {
    const { h, calls } = handlers();
    const result = await createRouter(h).call('app.info', payload, { host: 'cli' });
    assert.equal(!result.ok && result.error.code, 'ipc/invalid-request');
    assert.deepEqual(calls, []);
  });
}

test('a throwing handler becomes an internal error value, not an exception', async () => {
  const { h } = handlers({
    'app.info': () => {
      throw new Error('boom');
    },
  });
  const result = await createRouter(h).call('app.info', {}, { host: 'cli' });
  assert.equal(!result.ok && result.error.code, 'internal');
  assert.match(!result.ok ? result.error.message : '', /boom/);
});

test('a response that breaks the contract is caught', async () => {
  const { h } = handlers({ 'env.summary': () => ({ platform: 'linux' }) as never });
  const result = await createRouter(h).call('env.summary', {}, { host: 'cli' });
  assert.equal(!result.ok && result.error.code, 'ipc/invalid-response');
  assert.match(!result.ok ? result.error.message : '', /variables/);
});

test("answers 'trusted' (a user's CLI command) hands the answer out as made; requests are still checked", async () => {
  const drifted = { platform: 'linux' };
  const { h, calls } = handlers({ 'env.summary': () => drifted as never });
  const router = createRouter(h, { answers: (channel) => (channel === 'env.summary' ? 'trusted' : 'checked') });
  const result = await router.call('env.summary', {}, { host: 'cli' });
  assert.equal(result.ok, true);
  assert.equal(result.ok && result.value, drifted);
  const bad = await router.call('sessions.open', { id: 3 }, { host: 'cli' });
  assert.equal(!bad.ok && bad.error.code, 'ipc/invalid-request');
  assert.deepEqual(calls, []);
});

test("answers 'exact' (the tests' CLI runs): an answer in the contract's form passes as made; a key out of order, a key the contract lacks, or a broken one fail", async () => {
  const inForm = { platform: 'linux', variables: [], xdg: null };
  const answerOf = async (answer: unknown) =>
    createRouter(handlers({ 'env.summary': () => answer as never }).h, { answers: () => 'exact' }).call('env.summary', {}, { host: 'cli' });
  const ok = await answerOf(inForm);
  assert.equal(ok.ok && ok.value, inForm);
  for (const [answer, said] of [
    [{ variables: [], platform: 'linux', xdg: null }, /not in the contract's form: as made …\{"variables"/],
    [{ platform: 'linux', variables: [], xdg: null, extra: 1 }, /not in the contract's form: .*"extra":1/],
    [{ platform: 'linux' }, /breaks the contract: variables/],
  ] as const) {
    const r = await answerOf(answer);
    assert.equal(!r.ok && r.error.code, 'ipc/invalid-response', JSON.stringify(answer));
    assert.match(!r.ok ? r.error.message : '', said);
  }
});

test("answerMode: the CLI trusts discovery's inventory and explain's chain, exact under STRATA_CHECK_ANSWERS=1; every other answer is checked", () => {
  const exact = answerMode({ STRATA_CHECK_ANSWERS: '1' });
  assert.equal(exact('discovery.manifests'), 'exact');
  assert.equal(exact('chain.explain'), 'exact');
  assert.equal(exact('app.info'), 'checked');
  for (const value of [undefined, '', '0', 'true', 'yes']) {
    const mode = answerMode(value === undefined ? {} : { STRATA_CHECK_ANSWERS: value });
    assert.equal(mode('discovery.manifests'), 'trusted', String(value));
    assert.equal(mode('chain.explain'), 'trusted', String(value));
    assert.equal(mode('chain.compare'), 'checked', String(value));
  }
});

test('the same frozen answer object handed out again (a kept discovery) is checked once: the checked copy is reused; another object is checked anew', async () => {
  const kept = Object.freeze({ platform: 'linux', variables: [], xdg: null }) as never;
  let answer: unknown = kept;
  const { h } = handlers({ 'env.summary': () => answer as never });
  const router = createRouter(h);
  const first = await router.call('env.summary', {}, { host: 'cli' });
  assert.ok(first.ok, JSON.stringify(first));
  const again = await router.call('env.summary', {}, { host: 'cli' });
  assert.ok(again.ok && first.ok && again.value === first.value, 'the checked copy of the same object');
  // An object not frozen may change between two calls: checked each time.
  const open = { platform: 'linux', variables: [], xdg: null };
  answer = open;
  assert.ok((await router.call('env.summary', {}, { host: 'cli' })).ok);
  (open as { variables: unknown }).variables = 'changed';
  assert.equal(((r) => !r.ok && r.error.code)(await router.call('env.summary', {}, { host: 'cli' })), 'ipc/invalid-response');
  // Another object, even one that breaks the contract, is checked.
  answer = Object.freeze({ platform: 'linux' });
  const broken = await router.call('env.summary', {}, { host: 'cli' });
  assert.equal(!broken.ok && broken.error.code, 'ipc/invalid-response');
});

test('a handler failing with an error value keeps its code and fix', async () => {
  const { h } = handlers({
    'app.info': () => {
      throw new StrataRequestError({ code: 'bridge/crashed', message: 'The Vulkan probe was killed by SIGSEGV', fix: 'run with VK_LOADER_DEBUG=all' });
    },
  });
  const result = await createRouter(h).call('app.info', {}, { host: 'cli' });
  assert.deepEqual(!result.ok && result.error, {
    code: 'bridge/crashed',
    message: 'The Vulkan probe was killed by SIGSEGV',
    fix: 'run with VK_LOADER_DEBUG=all',
  });
});
