import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { makeTempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN } from '../helpers/strata-cli';

/**
 * `strata serve` at a terminal prints a one-time link (#code=), never the token, so a browser's
 * history keeps nothing reusable; Enter prints another. Run under a pseudo-terminal made by
 * util-linux `script`, as a person starts it.
 */

const SCRIPT = '/usr/bin/script';

test('at a terminal, strata serve prints a one-time link: it opens once, the token never shows, Enter gives another', { timeout: 90_000 }, async () => {
  // util-linux's script is in Debian's essential bsdutils package: always there, so its absence is a failure.
  assert.ok(existsSync(SCRIPT), `${SCRIPT} (util-linux, Debian package bsdutils) is needed to give strata serve a terminal`);
  const home = makeTempHome();
  const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(STRATA_BIN)} serve --port 0`;
  const child = spawn(SCRIPT, ['-qfec', cmd, '/dev/null'], { cwd: APP_ROOT, env: home.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const waitFor = (re: RegExp, what: string) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within 60 s:\n${out}`)), 60_000);
      const check = () => {
        const m = out.match(re);
        if (!m) return;
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(m);
      };
      child.stdout.on('data', check);
      check();
    });
  try {
    const [url, base, code] = await waitFor(/(http:\/\/127\.0\.0\.1:\d+)\/#code=([A-Za-z0-9_-]+)\r?\n/, 'one-time link');
    assert.ok(url);
    assert.doesNotMatch(out, /#token=/, 'a terminal is never shown the token');
    assert.match(out, /opens Strata once/);

    const redeem = (c: string) =>
      fetch(`${base}/auth/code`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base! }, body: JSON.stringify({ code: c }) });
    const first = await redeem(code!);
    assert.equal(first.status, 200);
    const token = ((await first.json()) as { value: { token: string } }).value.token;
    assert.equal((await redeem(code!)).status, 401, 'the link opens once: the code in the history is dead');
    const info = await fetch(`${base}/api/app.info`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base!, 'X-Strata-Token': token },
      body: '{}',
    });
    assert.equal(info.status, 200, 'the traded token works');

    child.stdin.write('\n');
    const [, second] = await waitFor(/Another one-time link: http:\/\/127\.0\.0\.1:\d+\/#code=([A-Za-z0-9_-]+)\r?\n/, 'second link');
    assert.notEqual(second, code);
    assert.equal((await redeem(second!)).status, 200, 'Enter gives a fresh link for another tab');
    assert.doesNotMatch(out, new RegExp(token), 'the token itself never reaches the terminal');
  } finally {
    // The server saves its code cache as it ends: its HOME goes only after it has exited.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(force);
    }
    home.cleanup();
  }
});
