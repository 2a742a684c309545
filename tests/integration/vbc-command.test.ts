import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatVbcDiagnostics, formatVbcInspection } from '../../main/hosts/cli/vbc-command';
import { inspectShaderFile, packShaderFiles } from '../../main/shaders/shader-service';
import { SHADER_FIXTURES } from '../helpers/shader-corpus';

/**
 * main/hosts/cli/vbc-command.ts: the human form of `strata shader inspect FILE.vbc` over a VBC file packed
 * from two stages glslangValidator compiles. What the text says is checked against the files
 * themselves: the bytecode word counts are the SPIR-V files' sizes / 4, the sections tile the file
 * from byte 0 to its end, each stage's section is its SPIR-V file. Diagnostics name the byte.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-vbc-command-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function compile(name: string): string {
  const out = join(dir, `${name}.spv`);
  execFileSync('glslangValidator', ['-V', join(SHADER_FIXTURES, name), '-o', out], { stdio: 'pipe' });
  return out;
}

/** vert + frag packed into a VBC file (once). */
let packing: Promise<{ vert: string; frag: string; vbc: string }> | undefined;
const packed = () =>
  (packing ??= (async () => {
    const vert = compile('vertex-attributes.vert');
    const frag = compile('fragment-outputs.frag');
    const vbc = join(dir, 'pipeline.vbc');
    assert.equal((await packShaderFiles({ stages: { vert, frag }, output: vbc })).ok, true);
    return { vert, frag, vbc };
  })());

test('inspect a packed file: header, word counts and sections that match the files, each stage valid', async () => {
  const { vert, frag, vbc } = await packed();
  const text = formatVbcInspection(await inspectShaderFile({ path: vbc }));
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, 2), [vbc, 'VBC version 1, shader type 1 (graphics)']);
  assert.equal(lines[2], `Bytecode words: vert ${statSync(vert).size / 4}, tesc 0, tese 0, geom 0, frag ${statSync(frag).size / 4}`);

  const sectionsAt = lines.indexOf('Sections');
  assert.match(lines[sectionsAt + 1]!, /^ {2}OFFSET +BYTES +SECTION$/);
  const sections: { offset: number; bytes: number; name: string }[] = [];
  for (let i = sectionsAt + 2; lines[i]; i++) {
    const [, offset, bytes, name] = /^ {2}(\d+) +(\d+) +(.+)$/.exec(lines[i]!)!;
    sections.push({ offset: Number(offset), bytes: Number(bytes), name: name! });
  }
  assert.equal(sections[0]?.offset, 0);
  for (let i = 1; i < sections.length; i++) assert.equal(sections[i]!.offset, sections[i - 1]!.offset + sections[i - 1]!.bytes, 'the sections tile the file');
  const last = sections.at(-1)!;
  assert.equal(last.offset + last.bytes, statSync(vbc).size);
  const file = readFileSync(vbc);
  for (const [stage, spv] of [
    ['vert', vert],
    ['frag', frag],
  ] as const) {
    const s = sections.find((x) => x.name === `bytecode ${stage}`)!;
    assert.ok(file.subarray(s.offset, s.offset + s.bytes).equals(readFileSync(spv)), `the ${stage} section is its SPIR-V file`);
    assert.match(text, new RegExp(`^Stage ${stage} \\(bytes ${s.offset}–${s.offset + s.bytes}\\)$`, 'm'));
  }
  assert.equal(text.match(/^ {2}valid$/gm)?.length, 2);
});

test('diagnostics of a damaged file: one line each, with the byte', async () => {
  const { vbc } = await packed();
  const damaged = join(dir, 'damaged.vbc');
  const bytes = readFileSync(vbc);
  writeFileSync(damaged, bytes.subarray(0, bytes.length - 100));
  const x = await inspectShaderFile({ path: damaged });
  assert.equal(x.ok, false);
  const lines = formatVbcDiagnostics(x).split('\n').filter(Boolean);
  assert.equal(lines.length, x.diagnostics.length);
  assert.ok(lines.length > 0);
  assert.match(lines[0]!, new RegExp(`^${damaged.replace(/[.]/g, '\\.')}: byte \\d+: error: .+ \\[vbc/[a-z-]+\\]$`));
});
