import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countingHandlers } from '../helpers/counting-handlers';
import { disassembleShaderFile, inspectShaderBytes, inspectShaderFile, packShaderBytes } from '../../main/shaders/shader-service';
import { SHADER_BYTES_LIMIT } from '../../shared/shader/shader-bytes-limit';

/** A minimal module, as words: header, OpCapability Shader, OpMemoryModel Logical GLSL450. */
const MODULE = [0x07230203, 0x00010000, 0x0008000b, 4, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1];
const moduleBytes = () => {
  const out = Buffer.alloc(MODULE.length * 4);
  MODULE.forEach((w, i) => out.writeUInt32LE(w >>> 0, i * 4));
  return out;
};

const dir = mkdtempSync(join(tmpdir(), 'strata-inspect-bytes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const router = () => countingHandlers({ 'shader.inspectBytes': inspectShaderBytes, 'shader.pack': packShaderBytes });

test('shader.inspectBytes answers what shader.inspect answers for the same bytes, plus shader.disassemble’s texts (friendly and raw)', async () => {
  const file = join(dir, 'min.spv');
  writeFileSync(file, moduleBytes());
  const { router: r, calls } = router();
  const result = await r.call('shader.inspectBytes', { name: 'min.spv', base64: moduleBytes().toString('base64') }, { host: 'browser' });
  assert.ok(result.ok, JSON.stringify(result));
  const fromFile = await inspectShaderFile({ path: file });
  const friendly = await disassembleShaderFile({ path: file });
  const raw = await disassembleShaderFile({ path: file, rawIds: true });
  assert.deepEqual(result.value, { ...fromFile, path: 'min.spv', disassembly: friendly.text, rawDisassembly: raw.text, idNames: [] });
  assert.match(friendly.text, /OpMemoryModel Logical GLSL450/);
  assert.deepEqual(calls, [], 'the override ran, not the counting stub');
});

test('shader.pack: stages as base64 in, a refusal with diagnostics (not a failed call) when they do not pack', async () => {
  const { router: r, calls } = router();
  const result = await r.call('shader.pack', { stages: { frag: moduleBytes().toString('base64') } }, { host: 'browser' });
  assert.ok(result.ok, JSON.stringify(result));
  const v = result.value as { ok: boolean; base64: string | null; diagnostics: { code: string }[] };
  assert.equal(v.ok, false);
  assert.equal(v.base64, null);
  // The minimal module has no entry point, so it is no fragment stage.
  assert.ok(
    v.diagnostics.some((d) => d.code === 'vbc/stage-model-mismatch'),
    JSON.stringify(v.diagnostics),
  );
  assert.deepEqual(calls, []);
});

for (const [label, payload] of [
  ['no stage', { stages: {} }],
  ['an unknown stage', { stages: { comp: 'AAAA' } }],
  ['a stage that is not base64', { stages: { vert: 'not base64!' } }],
  ['a path instead of bytes', { stages: { vert: '/tmp/a.spv' } }],
] as const) {
  test(`shader.pack: the router refuses ${label} before the handler runs`, async () => {
    const { router: r, calls } = countingHandlers();
    const result = await r.call('shader.pack', payload, { host: 'browser' });
    assert.equal(!result.ok && result.error.code, 'ipc/invalid-request');
    assert.deepEqual(calls, []);
  });
}

test('a file that is not SPIR-V is an answer (ok: false, spirv/bad-magic, no summary), not a failed call', async () => {
  const result = await router().router.call(
    'shader.inspectBytes',
    { name: 'notes.txt', base64: Buffer.from('hello, not a shader\n').toString('base64') },
    { host: 'browser' },
  );
  assert.ok(result.ok);
  const v = result.value as { ok: boolean; summary: unknown; diagnostics: { code: string }[]; disassembly: string; rawDisassembly: string; path: string };
  assert.equal(v.ok, false);
  assert.equal(v.summary, null);
  assert.equal(v.path, 'notes.txt');
  assert.deepEqual(
    v.diagnostics.map((d) => d.code),
    ['spirv/bad-magic'],
  );
  assert.equal(v.disassembly, '');
  assert.equal(v.rawDisassembly, '');
});

for (const [label, payload] of [
  ['not base64', { name: 'x.spv', base64: 'not base64!' }],
  ['unpadded base64', { name: 'x.spv', base64: 'AAE' }],
  ['an empty name', { name: '', base64: 'AAAA' }],
  ['a path instead of bytes', { path: '/etc/passwd' }],
  ['bytes over the limit', { name: 'big.spv', base64: 'A'.repeat(Math.ceil(SHADER_BYTES_LIMIT / 3) * 4 + 4) }],
] as const) {
  test(`the router refuses ${label} before the handler runs`, async () => {
    const { router: r, calls } = countingHandlers();
    const result = await r.call('shader.inspectBytes', payload, { host: 'browser' });
    assert.equal(!result.ok && result.error.code, 'ipc/invalid-request');
    assert.deepEqual(calls, []);
  });
}

test('the limit message names the size', async () => {
  const result = await countingHandlers().router.call(
    'shader.inspectBytes',
    { name: 'big.spv', base64: 'A'.repeat(Math.ceil(SHADER_BYTES_LIMIT / 3) * 4 + 4) },
    { host: 'browser' },
  );
  assert.match(!result.ok ? result.error.message : '', /larger than 16 MiB/);
});
