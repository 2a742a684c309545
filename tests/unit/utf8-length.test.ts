import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8ByteLength } from '../../shared/text/utf8-length';

// shared/text/utf8-length.ts: the UTF-8 size of a string without encoding it; Buffer.byteLength is
// the reference (it also writes a lone surrogate as U+FFFD, 3 bytes).
test('ASCII, 2-, 3- and 4-byte characters measure what Buffer.byteLength measures', () => {
  for (const text of ['', 'abc', 'é', 'ß€', '日本語', '😀', 'a😀b€', '\u007f\u0080\u07ff\u0800\uffff'])
    assert.equal(utf8ByteLength(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
});

test('a lone surrogate counts 3 (U+FFFD), a pair 4', () => {
  assert.equal(utf8ByteLength('\ud83d'), 3);
  assert.equal(utf8ByteLength('\ude00'), 3);
  assert.equal(utf8ByteLength('\ud83d\ude00'), 4);
  assert.equal(utf8ByteLength('\ud83dx'), 4);
  assert.equal(utf8ByteLength('x\ud83d'), Buffer.byteLength('x\ud83d', 'utf8'));
});
