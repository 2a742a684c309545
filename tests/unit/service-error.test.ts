/**
 * The one way a service raises a structured error (shared/errors/strata-error.ts: serviceError): the
 * router hands its code, where and fix to the caller unchanged, the CLI prints them as one line, and
 * nothing in main/ raises one any other way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRouter } from '../../main/router/router';
import { countingHandlers } from '../helpers/counting-handlers';
import { formatStrataError, serviceError, strataError, StrataRequestError } from '../../shared/errors/strata-error';
import { APP_ROOT } from '../helpers/strata-cli';

test('serviceError: code, message, where and fix; or a StrataError passed on as it is', () => {
  const e = serviceError('shader/unreadable', 'Cannot read the SPIR-V file: ENOENT', { where: '/x.spv', fix: 'check the path' });
  assert.ok(e instanceof StrataRequestError);
  assert.deepEqual(e.error, { code: 'shader/unreadable', message: 'Cannot read the SPIR-V file: ENOENT', where: '/x.spv', fix: 'check the path' });
  assert.equal(e.message, 'Cannot read the SPIR-V file: ENOENT (/x.spv). Fix: check the path');
  const value = strataError('profiles/not-found', 'No profile "x"', { fix: 'strata profile list' });
  assert.equal(serviceError(value).error, value);
});

test('the router gives a service error to the caller unchanged, and a plain Error as a bug with a fix', async () => {
  const raised = serviceError('sessions/running', 'Session a is still running', { where: '/s/a.jsonl', fix: 'stop it first' });
  const { handlers } = countingHandlers({
    'sessions.delete': () => {
      throw raised;
    },
    'app.info': () => {
      throw new Error('boom');
    },
  });
  const router = createRouter(handlers);
  const a = await router.call('sessions.delete', { id: 'a' }, { host: 'cli' });
  assert.deepEqual(a, { ok: false, error: raised.error });
  assert.equal(formatStrataError(raised.error), 'Session a is still running (/s/a.jsonl). Fix: stop it first');
  const b = await router.call('app.info', {}, { host: 'cli' });
  assert.equal(!b.ok && b.error.code, 'internal');
  assert.match(!b.ok ? (b.error.fix ?? '') : '', /a bug in Strata; please report it/);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

test('main/ raises structured errors through serviceError only (StrataRequestError is constructed in shared/ alone)', () => {
  const offenders = sources(join(APP_ROOT, 'main'))
    .filter((f) => /new StrataRequestError\(/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(APP_ROOT, f));
  assert.deepEqual(offenders, []);
});
