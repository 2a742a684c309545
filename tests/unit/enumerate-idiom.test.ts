import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NativeArena, NativeBlock } from '../../native-bridge/ffi';
import { enumerate, VkError } from '../../native-bridge/loader-queries';
import { VK_INCOMPLETE, VK_SUCCESS } from '../../shared/vulkan/vk-result';

/**
 * native-bridge/loader-queries.ts `enumerate`: the Vulkan two-call idiom, and with a guess one call
 * when the answer fits (the loader's instance enumerators, issue #19). An enumerator that follows
 * the spec here writes at most the room it is given, sets the count, and returns VK_INCOMPLETE
 * when there was more; the arena is plain memory addressed by number.
 */
function fakeArena() {
  const blocks = new Map<bigint, NativeBlock>();
  let next = 16n;
  const arena = {
    alloc(size: number) {
      const block = { address: next, bytes: Buffer.alloc(size) } as unknown as NativeBlock;
      blocks.set(next, block);
      next += BigInt(size) + 16n;
      return block;
    },
  } as unknown as NativeArena;
  return { arena, at: (address: bigint) => blocks.get(address) };
}

/** An enumerator of `items` (one byte each), counting its calls. */
function enumerator(fake: ReturnType<typeof fakeArena>, items: () => number[]) {
  const calls: ('count' | 'fill')[] = [];
  const call = (countAddress: bigint, arrayAddress: bigint): number => {
    const count = fake.at(countAddress)!.bytes;
    const all = items();
    if (arrayAddress === 0n) {
      calls.push('count');
      count.writeUInt32LE(all.length, 0);
      return VK_SUCCESS;
    }
    calls.push('fill');
    const room = count.readUInt32LE(0);
    const written = Math.min(room, all.length);
    all.slice(0, written).forEach((v, i) => (fake.at(arrayAddress)!.bytes[i] = v));
    count.writeUInt32LE(written, 0);
    return written < all.length ? VK_INCOMPLETE : VK_SUCCESS;
  };
  return { calls, call };
}

const values = (r: { block: NativeBlock; count: number }) => [...r.block.bytes.subarray(0, r.count)];

test('with a guess that holds the answer: one call', () => {
  const fake = fakeArena();
  const e = enumerator(fake, () => [1, 2, 3]);
  assert.deepEqual(values(enumerate(fake.arena, 'vkTest', 1, e.call, 8)), [1, 2, 3]);
  assert.deepEqual(e.calls, ['fill']);
});

test('with a guess too small: VK_INCOMPLETE, then the two-call idiom, with the whole answer', () => {
  const fake = fakeArena();
  const e = enumerator(fake, () => [1, 2, 3, 4, 5]);
  assert.deepEqual(values(enumerate(fake.arena, 'vkTest', 1, e.call, 2)), [1, 2, 3, 4, 5]);
  assert.deepEqual(e.calls, ['fill', 'count', 'fill']);
});

test('without a guess: count, then fill; a set that grew in between is asked again', () => {
  const fake = fakeArena();
  // Two items when counted first, four from then on (a layer installed meanwhile).
  let asked = 0;
  const e = enumerator(fake, () => (asked++ === 0 ? [1, 2] : [1, 2, 3, 4]));
  assert.deepEqual(values(enumerate(fake.arena, 'vkTest', 1, e.call)), [1, 2, 3, 4]);
  assert.deepEqual(e.calls, ['count', 'fill', 'count', 'fill']);
});

test('an empty answer: the guessed call says so at once', () => {
  const fake = fakeArena();
  const e = enumerator(fake, () => []);
  assert.deepEqual(values(enumerate(fake.arena, 'vkTest', 1, e.call, 8)), []);
  assert.deepEqual(e.calls, ['fill']);
});

test('an error from the guessed call is the error, named for the call', () => {
  const fake = fakeArena();
  assert.throws(
    () => enumerate(fake.arena, 'vkEnumerateInstanceExtensionProperties', 1, () => -9, 8),
    (e) =>
      e instanceof VkError &&
      e.code === 'vulkan/incompatible-driver' &&
      /vkEnumerateInstanceExtensionProperties returned VK_ERROR_INCOMPATIBLE_DRIVER/.test(e.message),
  );
});
