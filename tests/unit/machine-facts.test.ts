import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgetMachineFacts, machineFact } from '../../shared/app/machine-facts';

/**
 * shared/app/machine-facts.ts: a fact is read on first use and kept, and forgetMachineFacts() (the
 * CLI snapshot's builder, bin/cli-snapshot.cjs) makes every one of them read again, so a snapshot
 * never carries what the build machine answered.
 */
test('a machine fact is read once, kept, and read again after forgetMachineFacts', () => {
  let reads = 0;
  const fact = machineFact(() => ({ read: ++reads }));
  const other = machineFact(() => null);
  assert.equal(reads, 0, 'not read before it is asked');
  const first = fact();
  assert.equal(fact(), first, 'the same value, not a copy');
  assert.equal(reads, 1);
  assert.equal(other(), null, 'a null fact is kept too');
  forgetMachineFacts();
  assert.deepEqual(fact(), { read: 2 });
  assert.notEqual(fact(), first);
  assert.equal(reads, 2);
});

test('a fact whose read throws is not kept: the next use reads again', () => {
  let reads = 0;
  const fact = machineFact(() => {
    reads++;
    if (reads === 1) throw new Error('not yet');
    return 'now';
  });
  assert.throws(fact, /not yet/);
  assert.equal(fact(), 'now');
  assert.equal(reads, 2);
});
