import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OneTimeCodes } from '../../main/serve/one-time-codes';
import { writeLaunchFile } from '../../main/serve/launch-file';

test('a code is redeemed once; another code, a prefix or a non-string is refused', () => {
  const codes = new OneTimeCodes(60_000);
  let redeemed = 0;
  const a = codes.mint(() => redeemed++);
  const b = codes.mint();
  assert.notEqual(a, b);
  for (const bad of [a.slice(0, -1), `${a}x`, '', null, 42, { code: a }]) assert.equal(codes.redeem(bad), false);
  assert.equal(codes.redeem(a), true);
  assert.equal(redeemed, 1);
  assert.equal(codes.redeem(a), false);
  assert.equal(redeemed, 1);
  assert.equal(codes.redeem(b), true);
});

test('a code expires after its time to live', () => {
  let now = 1000;
  const codes = new OneTimeCodes(500, () => now);
  const a = codes.mint();
  const b = codes.mint();
  now = 1499;
  assert.equal(codes.redeem(a), true);
  now = 1500;
  assert.equal(codes.redeem(b), false);
});

test('the launch file is private, forwards to the target, and escapes it', () => {
  const target = 'http://127.0.0.1:1234/#code=abc"<script>&x';
  const file = writeLaunchFile(target);
  try {
    const path = fileURLToPath(file.url);
    assert.equal(path, file.path);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    const html = readFileSync(path, 'utf8');
    assert.ok(!html.includes('"<script>'), 'the target cannot break out of the attribute or the script');
    assert.match(html, /content="0; url=http:\/\/127\.0\.0\.1:1234\/#code=abc&#34;&#60;script&#62;&#38;x"/);
  } finally {
    file.remove();
  }
  assert.ok(!existsSync(file.path));
});
