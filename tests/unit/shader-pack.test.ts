import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ShaderPackRequestSchema } from '../../shared/shader/shader-pack';

// shared/shader/shader-pack.ts: the request names at least one stage, each padded standard base64.
test('shader.pack requests: at least one known stage, base64 bytes, nothing else', () => {
  const spv = Buffer.from([0x03, 0x02, 0x23, 0x07]).toString('base64');
  assert.ok(ShaderPackRequestSchema.safeParse({ stages: { vert: spv, frag: spv } }).success);
  assert.ok(ShaderPackRequestSchema.safeParse({ stages: { frag: spv } }).success);
  const none = ShaderPackRequestSchema.safeParse({ stages: {} });
  assert.ok(!none.success);
  assert.match(none.error.issues[0]?.message ?? '', /name at least one stage/);
  assert.ok(!ShaderPackRequestSchema.safeParse({ stages: { comp: spv } }).success, 'compute is not a VBC stage');
  assert.ok(!ShaderPackRequestSchema.safeParse({ stages: { vert: 'AAA' } }).success, 'unpadded base64');
  assert.ok(!ShaderPackRequestSchema.safeParse({ stages: { vert: spv }, out: '/tmp/x' }).success, 'no file name: nothing is written on main’s side');
});
