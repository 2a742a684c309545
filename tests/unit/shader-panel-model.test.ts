import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definitionLines, idsByNameOf, resolveId, splitLines, tokenizeLine } from '../../renderer/src/shaders/disassembly-lines';
import { moduleView, packedFileName, stagesOf } from '../../renderer/src/shaders/shader-stages';
import { bytesFromBase64 } from '../../renderer/src/shaders/file-base64';
import { byteRange } from '../../renderer/src/shaders/shader-labels';
import type { ShaderInspectBytes } from '../../shared/shader/shader-inspect-bytes';

/** The Shaders panel's React-free logic for friendly names and VBC files (renderer/src/shaders/). */

// spirv-dis text where OpName %5 "7" took the name "7", so id 7 is %7_0 and `%7` means id 5.
const FRIENDLY = `               OpName %main "main"
               OpName %7 "7"
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
          %7 = OpLabel
        %7_0 = OpUndef %void
               OpBranch %7
`;
const NAMES = idsByNameOf([
  [4, 'main'],
  [5, '7'],
  [2, 'void'],
  [7, '7_0'],
]);

test('resolveId: a friendly name through the table first (a name can be another id’s number), else digits are the id', () => {
  assert.equal(resolveId('main', NAMES), 4);
  assert.equal(resolveId('7', NAMES), 5);
  assert.equal(resolveId('7_0', NAMES), 7);
  assert.equal(resolveId('3', NAMES), 3);
  assert.equal(resolveId('v4float', NAMES), undefined);
  assert.equal(resolveId('12'), 12);
});

test('tokenizeLine and definitionLines link friendly names to ids', () => {
  const lines = splitLines(FRIENDLY);
  assert.deepEqual(
    tokenizeLine(lines[4]!, NAMES).filter((t) => t.kind === 'id'),
    [
      { kind: 'id', text: '%main', id: 4 },
      { kind: 'id', text: '%void', id: 2 },
      { kind: 'id', text: '%3', id: 3 },
    ],
  );
  for (const line of lines)
    assert.equal(
      tokenizeLine(line, NAMES)
        .map((t) => t.text)
        .join(''),
      line,
    );
  assert.deepEqual(
    [...definitionLines(lines, NAMES).entries()],
    [
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
      [7, 6],
    ],
  );
  // Without the table (raw ids), a name is not an id and is left as text.
  assert.deepEqual(
    tokenizeLine(lines[4]!).filter((t) => t.kind === 'id'),
    [{ kind: 'id', text: '%3', id: 3 }],
  );
});

const reflection = (name: string) => ({
  entryPoints: [],
  descriptorBindings: [],
  pushConstants: [],
  specializationConstants: [{ id: 1, specId: 0, name, type: 'int', defaultValue: 1 }],
});
const stage = (s: 'vert' | 'frag') => ({ stage: s, byteOffset: 0, byteLength: 0, ok: true, summary: null, reflection: reflection(s), diagnostics: [] });
const VBC: ShaderInspectBytes = {
  path: 'a.vbc',
  ok: true,
  summary: null,
  reflection: reflection('union'),
  diagnostics: [],
  format: 'vbc',
  stages: [stage('vert'), stage('frag')],
  disassembly: '',
  rawDisassembly: '',
  idNames: [],
  stageDisassemblies: [
    { stage: 'vert', disassembly: 'vert friendly', rawDisassembly: 'vert raw', idNames: [[1, 'a']] },
    { stage: 'frag', disassembly: 'frag friendly', rawDisassembly: 'frag raw', idNames: [] },
  ],
};

test('moduleView: a SPIR-V module is itself; a VBC file shows the stage picked (the first one when none or another)', () => {
  const spirv: ShaderInspectBytes = {
    ...VBC,
    format: undefined,
    stages: undefined,
    stageDisassemblies: undefined,
    disassembly: 'f',
    rawDisassembly: 'r',
    idNames: [[2, 'x']],
  };
  assert.deepEqual(moduleView(spirv, 'frag'), {
    stage: null,
    reflection: spirv.reflection,
    texts: { disassembly: 'f', rawDisassembly: 'r', idNames: [[2, 'x']] },
  });
  assert.deepEqual(stagesOf(VBC), ['vert', 'frag']);
  assert.equal(moduleView(VBC, 'frag').texts.rawDisassembly, 'frag raw');
  assert.equal(moduleView(VBC, 'frag').reflection.specializationConstants[0]!.name, 'frag');
  assert.deepEqual(moduleView(VBC, null).texts, { disassembly: 'vert friendly', rawDisassembly: 'vert raw', idNames: [[1, 'a']] });
  assert.equal(moduleView(VBC, 'geom').stage, 'vert');
  assert.equal(moduleView({ ...VBC, stages: [], stageDisassemblies: [] }, null).stage, null);
});

test('Pack VBC: the suggested name, the download’s bytes, VBC offsets in bytes', () => {
  assert.equal(packedFileName(['vertex-attributes.vert.spv', 'x.frag.spv']), 'vertex-attributes.vbc');
  assert.equal(packedFileName(['mesh.spv']), 'mesh.vbc');
  assert.equal(packedFileName([]), 'shader.vbc');
  assert.deepEqual([...bytesFromBase64(Buffer.from([0, 1, 254, 255, 86]).toString('base64'))], [0, 1, 254, 255, 86]);
  assert.equal(byteRange({ start: { character: 25 }, end: { character: 29 } }), 'bytes 25–28');
  assert.equal(byteRange({ start: { character: 0 }, end: { character: 1 } }), 'byte 0');
});
