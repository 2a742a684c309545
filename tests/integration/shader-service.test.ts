import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disassembleShaderFile, inspectShaderBytes, inspectShaderFile, packShaderBytes, packShaderFiles } from '../../main/shaders/shader-service';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { READ_LIMITS } from '../../shared/files/read-limits';
import { SHADER_FIXTURES } from '../helpers/shader-corpus';

/**
 * main/shaders/shader-service.ts: the I/O around the shader decoders in shared/. Files are read
 * through the guarded reader (a folder, a FIFO, a missing or oversized file each get their own
 * error, before anything is decoded); a VBC file is told by its magic and disassembled stage by
 * stage; a pack writes its file whole or not at all. Shaders are compiled from the fixtures with
 * glslangValidator; what spirv-dis prints for them is tests/integration/spirv-disassembler.test.ts.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-shader-service-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function compile(name: string): string {
  const out = join(dir, `${name}.spv`);
  if (!existsSync(out)) execFileSync('glslangValidator', ['-V', join(SHADER_FIXTURES, name), '-o', out], { stdio: 'pipe' });
  return out;
}

function refusal(code: string, where: string, message?: RegExp) {
  return (e: unknown) => {
    assert.ok(e instanceof StrataRequestError, String(e));
    assert.equal(e.error.code, code);
    assert.equal(e.error.where, where);
    if (message) assert.match(e.error.message, message);
    return true;
  };
}

test('unreadable files: missing, a folder, a FIFO, one over the shader limit — each refused with its own code, nothing decoded', async () => {
  const missing = join(dir, 'missing.spv');
  await assert.rejects(inspectShaderFile({ path: missing }), refusal('shader/unreadable', missing));
  const folder = join(dir, 'a-folder.spv');
  mkdirSync(folder);
  await assert.rejects(disassembleShaderFile({ path: folder }), (e) => {
    assert.ok(e instanceof StrataRequestError);
    assert.equal(e.error.code, 'shader/unreadable');
    assert.equal(e.error.fix, 'name a .spv file, not a folder');
    return true;
  });
  const fifo = join(dir, 'fifo.spv');
  execFileSync('mkfifo', [fifo]);
  await assert.rejects(inspectShaderFile({ path: fifo }), refusal('shader/unreadable', fifo));
  const huge = join(dir, 'huge.spv');
  writeFileSync(huge, '');
  truncateSync(huge, READ_LIMITS.shader + 1);
  await assert.rejects(inspectShaderFile({ path: huge }), refusal('shader/too-large', huge));
});

test('a relative path is answered as an absolute one; a file that is not SPIR-V is an answer (ok: false), not a refusal', async () => {
  const junk = join(dir, 'junk.spv');
  writeFileSync(junk, 'not a shader at all');
  const relative = junk.slice(process.cwd().length + 1);
  const answer = await inspectShaderFile({ path: junk.startsWith(process.cwd()) ? relative : junk });
  assert.equal(answer.path, junk);
  assert.equal(answer.ok, false);
  const dis = await disassembleShaderFile({ path: junk });
  assert.equal(dis.ok, false);
  assert.ok(dis.diagnostics.every((d) => typeof d.message === 'string'));
});

test('packShaderFiles writes the VBC file whole; a VBC file is then inspected and disassembled stage by stage, found by its magic', async () => {
  const output = join(dir, 'out', 'pipeline.bin');
  mkdirSync(join(dir, 'out'));
  const packed = await packShaderFiles({ stages: { vert: compile('vertex-attributes.vert'), frag: compile('fragment-outputs.frag') }, output });
  assert.equal(packed.ok, true, JSON.stringify(packed.diagnostics));
  assert.equal(packed.output, output);
  assert.equal(readFileSync(output).length, packed.byteLength);
  assert.deepEqual(readdirSync(join(dir, 'out')), ['pipeline.bin'], 'no temporary file left');

  // Its bytes are what shader.pack answers for the same stages.
  const viaBytes = packShaderBytes({
    stages: {
      vert: readFileSync(compile('vertex-attributes.vert')).toString('base64'),
      frag: readFileSync(compile('fragment-outputs.frag')).toString('base64'),
    },
  });
  assert.equal(Buffer.from(viaBytes.base64!, 'base64').equals(readFileSync(output)), true);

  const inspected = await inspectShaderFile({ path: output });
  assert.equal(inspected.ok, true);
  const dis = await disassembleShaderFile({ path: output });
  assert.equal(dis.format, 'vbc');
  const stageComments = dis.text.split('\n').filter((l) => l.startsWith('; Stage '));
  assert.equal(stageComments.length, 2);
  assert.match(stageComments[0]!, /^; Stage vert: bytes \d+–\d+ of the file$/);
  assert.match(dis.text, /OpEntryPoint Vertex/);
  assert.match(dis.text, /OpEntryPoint Fragment/);
  const bytes = inspectShaderBytes({ name: 'pipeline.bin', base64: readFileSync(output).toString('base64') });
  assert.deepEqual(
    bytes.stageDisassemblies?.map((s) => s.stage),
    ['vert', 'frag'],
  );
});

test('a pack that does not validate writes nothing; an unwritable folder is refused and leaves no temporary file', async () => {
  const refusedOut = join(dir, 'refused.vbc');
  const refused = await packShaderFiles({ stages: { tesc: compile('tessellation.tesc') }, output: refusedOut });
  assert.equal(refused.ok, false);
  assert.ok(refused.diagnostics.length > 0);
  assert.deepEqual([refused.output, refused.byteLength, existsSync(refusedOut)], [null, 0, false]);

  // The output is a folder: the temporary file is written, the rename fails, and the temporary file goes.
  const folder = join(dir, 'taken');
  mkdirSync(folder);
  const stages = { vert: compile('vertex-attributes.vert'), frag: compile('fragment-outputs.frag') };
  await assert.rejects(packShaderFiles({ stages, output: folder }), refusal('shader/unwritable', folder, /^Cannot write the VBC file: EISDIR$/));
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith('taken')),
    ['taken'],
    'no temporary file left beside it',
  );
  assert.deepEqual(readdirSync(folder), []);
  // The output's folder is a regular file: the write fails with ENOTDIR, and so would the clean-up;
  // the write's error is the one reported, as the channel's error value.
  const file = join(dir, 'plain-file');
  writeFileSync(file, 'x');
  const under = join(file, 'out.vbc');
  await assert.rejects(packShaderFiles({ stages, output: under }), refusal('shader/unwritable', under, /^Cannot write the VBC file: ENOTDIR$/));
});
