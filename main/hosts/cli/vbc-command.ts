import { StrataRequestError } from '../../../shared/errors/strata-error';
import type { ShaderInspection } from '../../../shared/shader/shader-inspection';
import { BINDING_TABLES, VBC_STAGES, baseTypeName, texelRankName, texelTypeName, type VbcStage } from '../../../shared/shader/vbc-enums';
import { CliFailure } from './cli-channel';
import { EXIT, formatTable, printJson, severityName } from './cli-output';
import { writeErr, writeOut } from './standard-streams';

const stageNames = (mask: number) => VBC_STAGES.filter((_, i) => mask & (1 << i)).join('+') || '-';
const dims = (d: [number, number], arraySize: number) => `${d[0]}×${d[1]}${arraySize !== 1 ? `[${arraySize}]` : ''}`;

/** One line per diagnostic: "FILE: byte N: error: message [code]" (a stage's SPIR-V diagnostics too, in bytes of the file). */
export function formatVbcDiagnostics(x: Pick<ShaderInspection, 'path' | 'diagnostics'>): string {
  return x.diagnostics.map((d) => `${x.path}: byte ${d.range.start.character}: ${severityName(d.severity)}: ${d.message} [${d.code}]\n`).join('');
}

/** The human form of `strata shader inspect FILE.vbc`: header, sections, the file's reflection, then each stage. */
export function formatVbcInspection(x: ShaderInspection): string {
  const out: string[] = [x.path];
  const v = x.vbc;
  const h = v?.header;
  if (h) {
    out.push(`VBC version ${h.version}, shader type ${h.shaderType}${h.shaderType === 1 ? ' (graphics)' : ''}`);
    out.push(`Bytecode words: ${VBC_STAGES.map((s, i) => `${s} ${h.bytecodeWords[i]}`).join(', ')}`);
    out.push(`Binding tables: ${BINDING_TABLES.map((t, i) => `${t} ${h.bindingTableSizes[i]}`).join(', ')}`);
  }
  const section = (title: string, body: string) => out.push('', title, body);
  if (v?.sections.length)
    section(
      'Sections',
      formatTable(
        ['OFFSET', 'BYTES', 'SECTION'],
        v.sections.map((s) => [String(s.byteOffset), String(s.byteLength), s.name]),
        '  ',
      ),
    );
  const r = v?.reflection;
  if (r) {
    for (const [title, list] of [
      ['Vertex inputs', r.vertexInputs],
      ['Fragment outputs', r.fragmentOutputs],
    ] as const) {
      if (list.length)
        section(
          title,
          formatTable(
            ['LOCATION', 'TYPE', 'DIMS'],
            list.map((i) => [String(i.location), baseTypeName(i.baseType), dims(i.dims, i.arraySize)]),
            '  ',
          ),
        );
    }
    if (r.bindings.length) {
      section(
        'Bindings',
        formatTable(
          ['SLOT', 'KIND', 'STAGES', 'LAYOUT'],
          r.bindings.map((b) => [
            String(b.slot),
            baseTypeName(b.baseType),
            stageNames(b.stageMask),
            b.layout === 'buffer'
              ? `${b.bufferSize} bytes`
              : `rank ${texelRankName(b.rank)}, ${texelTypeName(b.texelType)} ${b.texelSize}×${b.texelComponents}`,
          ]),
          '  ',
        ),
      );
    }
    if (r.uniform) {
      section(
        `Uniform (${r.uniform.size} bytes, ${stageNames(r.uniform.stageMask)})`,
        formatTable(
          ['OFFSET', 'MEMBER', 'TYPE', 'DIMS'],
          r.uniform.members.map((m) => [String(m.offset), m.name, baseTypeName(m.baseType), dims(m.dims, m.arraySize)]),
          '  ',
        ),
      );
    }
    if (r.subpassInputs.length)
      section(
        'Subpass inputs',
        formatTable(
          ['INDEX', 'TEXEL TYPE', 'COMPONENTS'],
          r.subpassInputs.map((s, i) => [String(i), texelTypeName(s.texelType), String(s.components)]),
          '  ',
        ),
      );
  }
  for (const s of x.stages ?? []) {
    const e = s.reflection.entryPoints[0];
    const sum = s.summary;
    section(
      `Stage ${s.stage} (bytes ${s.byteOffset}–${s.byteOffset + s.byteLength})`,
      [
        sum ? `  SPIR-V ${sum.version}, ${sum.generator}, bound ${sum.bound}, ${sum.instructionCount} instructions` : '  not a SPIR-V module',
        e ? `  entry point ${e.name} (${e.executionModel})` : '  no entry point',
        ...(e
          ? [...e.inputs, ...e.outputs]
              .filter((i) => !i.builtIns.length)
              .map(
                (i) =>
                  `  ${e.inputs.includes(i) ? 'in ' : 'out'} ${String(i.location ?? '-').padStart(2)} ${i.type.replace(/ \{.*\}/, '')} ${i.name || i.blockName}`,
              )
          : []),
        ...s.reflection.descriptorBindings.map(
          (d) => `  set ${d.set} binding ${d.binding}: ${d.kind} ${d.name || d.block?.typeName} (${d.type.replace(/ \{.*\}/, '')})`,
        ),
        `  ${s.ok ? 'valid' : `${s.diagnostics.filter((d) => (d.severity ?? 1) === 1).length} error(s)`}`,
      ].join('\n'),
    );
  }
  return `${out.join('\n')}\n`;
}

interface PackOptions extends Partial<Record<VbcStage, string>> {
  output: string;
  json?: boolean;
}

/** `strata shader pack --vert a.spv --frag b.spv -o out.vbc [--json]`: diagnostics on stderr; exit 1 and no file when the stages do not pack. */
export async function shaderPackAction(opts: PackOptions): Promise<void> {
  const stages: Partial<Record<VbcStage, string>> = {};
  for (const s of VBC_STAGES) if (opts[s]) stages[s] = opts[s];
  if (!Object.keys(stages).length) {
    writeErr('strata: shader pack needs at least one stage (none of --vert, --tesc, --tese, --geom, --frag was given). Fix: add --vert FILE, --frag FILE, …\n');
    process.exitCode = EXIT.usage;
    return;
  }
  let result;
  try {
    const { packShaderFiles } = await import('../../shaders/shader-service');
    result = await packShaderFiles({ stages, output: opts.output });
  } catch (e) {
    if (e instanceof StrataRequestError) throw new CliFailure(e.error, EXIT.problems);
    throw e;
  }
  if (opts.json) printJson(result);
  else {
    writeErr(result.diagnostics.map((d) => `${severityName(d.severity)}: ${d.message} [${d.code}]\n`).join(''));
    if (result.output) writeOut(`${result.output}: ${result.byteLength} bytes (${Object.keys(stages).join(', ')})\n`);
  }
  if (!result.ok) process.exitCode = EXIT.problems;
}
