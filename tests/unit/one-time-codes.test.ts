import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OneTimeCodes } from '../../main/hosts/serve/one-time-codes';

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
