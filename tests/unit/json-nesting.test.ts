import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excessiveNesting, JSON_NESTING_LIMIT, nestingMessage } from '../../shared/json/json-nesting';

// shared/json/json-nesting.ts: loader 1.4.309+ cJSON refuses more than CJSON_NESTING_LIMIT = 1000
// open containers (loader/cJSON.h); Strata refuses the same files.
test('the limit is cJSON’s 1000: 1000 levels pass, 1001 are refused at the 1001st opener', () => {
  assert.equal(JSON_NESTING_LIMIT, 1000);
  assert.equal(excessiveNesting('['.repeat(1000) + ']'.repeat(1000)), null);
  const deep = '{"a":' + '['.repeat(1000) + ']'.repeat(1000) + '}';
  assert.equal(excessiveNesting(deep), 5 + 999);
});

test('depth is on the current path, not the total; strings (with escapes) are skipped', () => {
  assert.equal(excessiveNesting('[[],[],[]]', 2), null);
  assert.equal(excessiveNesting('[[[]]]', 2), 2);
  assert.equal(excessiveNesting('["[[[[", "\\"[[[["]', 1), null);
  assert.equal(excessiveNesting('["\\\\", [[]]]', 2), 8);
  // A truncated string or stray closers never throw or go negative.
  assert.equal(excessiveNesting(']]]][[', 2), null);
  assert.equal(excessiveNesting('["unterminated [[[[', 1), null);
});

test('the message names the file, the offset and the loader versions', () => {
  const m = nestingMessage('/x/layer.json', 17);
  assert.match(m, /^\/x\/layer\.json nests JSON arrays\/objects deeper than 1000 levels \(at offset 17\)/);
  assert.match(m, /1\.4\.309 and later/);
});
