import { callChannel } from './cli-channel';
import { EXIT, formatTable, printJson, severityName } from './cli-output';
import type { ShaderDisassembly } from '../../../shared/shader/shader-disassembly';
import type { ShaderInspection } from '../../../shared/shader/shader-inspection';
import type { BlockMember } from '../../../shared/shader/spirv-reflect';
import { formatVbcDiagnostics, formatVbcInspection } from './vbc-command';
import { writeErr, writeOut } from './standard-streams';

/** One line per diagnostic, for stderr: "FILE: word N: error: message [code]". */
export function formatSpirvDiagnostics(result: Pick<ShaderDisassembly, 'path' | 'diagnostics'>): string {
  return result.diagnostics.map((d) => `${result.path}: word ${d.range.start.character}: ${severityName(d.severity)}: ${d.message} [${d.code}]\n`).join('');
}

/**
 * `strata shader disassemble FILE [--raw-id] [--json]`: the text on stdout (identical to `spirv-dis`, or with
 * `--raw-id` to `spirv-dis --raw-id`; a VBC file: each stage's), diagnostics on stderr; exit 1 when
 * the file has errors.
 */
export async function shaderDisAction(file: string, opts: { json?: boolean; rawId?: boolean }): Promise<void> {
  // The text as bytes, written as they are (a VBC file's comes as text all the same).
  const value = await callChannel('shader.disassemble', { path: file, rawIds: opts.rawId === true, ...(opts.json ? {} : { utf8: true }) });
  if (opts.json) printJson(value);
  else {
    writeOut(value.utf8 ?? value.text);
    writeErr(value.format === 'vbc' ? formatVbcDiagnostics(value) : formatSpirvDiagnostics(value));
  }
  if (!value.ok) process.exitCode = EXIT.problems;
}

const dash = (v: unknown) => (v === undefined || v === null || v === '' ? '-' : String(v));
const dims = (d: number[]) => d.map((n) => (n ? `[${n}]` : '[]')).join('');

/** Flattened block members (`lights[].color`), for one OFFSET / SIZE / MEMBER / TYPE table. */
function memberRows(members: BlockMember[], prefix = ''): string[][] {
  return members.flatMap((m) => {
    const name = `${prefix}${m.name}`;
    const row = [
      dash(m.offset),
      dash(m.size),
      name,
      m.type +
        (m.matrixStride !== undefined
          ? ` (${m.rowMajor ? 'row' : 'column'}-major, stride ${m.matrixStride})`
          : m.arrayStride !== undefined
            ? ` (stride ${m.arrayStride})`
            : ''),
    ];
    return [row, ...(m.members ? memberRows(m.members, `${name}${m.arraySize ? '[]' : ''}.`) : [])];
  });
}

/** The human form of `strata shader inspect`: summary lines, then one table per section. */
export function formatShaderInspection(x: ShaderInspection): string {
  const out: string[] = [x.path];
  const s = x.summary;
  if (s) {
    out.push(`SPIR-V ${s.version} (${s.endianness}-endian), ${s.generator}, bound ${s.bound}, ${s.instructionCount} instructions`);
    out.push(`Capabilities: ${s.capabilities.join(', ') || '-'}`);
    if (s.extensions.length) out.push(`Extensions: ${s.extensions.join(', ')}`);
    if (s.extInstImports.length) out.push(`Imports: ${s.extInstImports.join(', ')}`);
    out.push(`Memory model: ${dash(s.addressingModel)} ${dash(s.memoryModel)}`);
  }
  const r = x.reflection;
  const section = (title: string, body: string) => out.push('', title, body);
  if (r.entryPoints.length) {
    section(
      'Entry points',
      formatTable(
        ['STAGE', 'NAME', 'EXECUTION MODEL', 'MODES'],
        r.entryPoints.map((e) => [
          e.stage,
          e.name,
          e.executionModel,
          [
            ...e.executionModes.map((m) => (m.operands.length ? `${m.mode} ${m.operands.join(' ')}` : m.mode)),
            // The WorkgroupSize built-in or LocalSizeId can make a dimension a specialization constant.
            ...(e.workgroupSize?.some((d) => d.specId !== undefined)
              ? [`workgroup size ${e.workgroupSize.map((d) => (d.specId !== undefined ? `${d.value} (SpecId ${d.specId})` : String(d.value))).join(' ')}`]
              : []),
          ].join(', ') || '-',
        ]),
        '  ',
      ),
    );
  }
  for (const e of r.entryPoints) {
    for (const [title, vars] of [
      ['Inputs', e.inputs],
      ['Outputs', e.outputs],
    ] as const) {
      if (!vars.length) continue;
      section(
        `${title} of ${e.name} (${e.stage})`,
        formatTable(
          ['LOCATION', 'COMPONENT', 'BUILT-IN', 'NAME', 'TYPE'],
          vars.map((v) => [
            dash(v.location),
            dash(v.component),
            v.builtIns.join(', ') || '-',
            v.name || v.blockName || `_${v.id}`,
            [...v.qualifiers.map((q) => q.toLowerCase()), v.type].join(' '),
          ]),
          '  ',
        ),
      );
    }
  }
  if (r.descriptorBindings.length) {
    section(
      'Descriptor bindings',
      formatTable(
        ['SET', 'BINDING', 'KIND', 'COUNT', 'NAME', 'TYPE'],
        r.descriptorBindings.map((d) => [
          String(d.set),
          String(d.binding),
          d.kind +
            (d.inputAttachmentIndex !== undefined ? ` #${d.inputAttachmentIndex}` : '') +
            (d.imageFormat ? ` (${d.imageFormat})` : '') +
            (d.access !== 'read-write' && d.kind !== 'uniform buffer' ? `, ${d.access}` : ''),
          d.arraySize.length ? dims(d.arraySize) : '1',
          d.name || d.block?.typeName || `_${d.id}`,
          d.block ? `struct ${d.block.typeName}${dims(d.arraySize)}` : d.type,
        ]),
        '  ',
      ),
    );
  }
  const blocks = [
    ...r.pushConstants.map((p) => ({
      title: `Push constants ${p.name || p.block.typeName} (struct ${p.block.typeName}, ${p.block.size} bytes)`,
      block: p.block,
    })),
    ...r.descriptorBindings.flatMap((d) =>
      d.block
        ? [
            {
              title: `Block ${d.block.typeName} (set ${d.set}, binding ${d.binding}, ${d.block.size} bytes${d.block.runtimeArrayStride !== undefined ? ` + ${d.block.runtimeArrayStride} per runtime array element` : ''})`,
              block: d.block,
            },
          ]
        : [],
    ),
  ];
  for (const b of blocks) section(b.title, formatTable(['OFFSET', 'SIZE', 'MEMBER', 'TYPE'], memberRows(b.block.members), '  '));
  if (r.specializationConstants.length) {
    section(
      'Specialization constants',
      formatTable(
        ['SPEC ID', 'NAME', 'TYPE', 'DEFAULT'],
        r.specializationConstants.map((c) => [String(c.specId), c.name || `_${c.id}`, c.type, String(c.defaultValue)]),
        '  ',
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

/** `strata shader inspect FILE [--json]`: summary, reflection tables; diagnostics on stderr; exit 1 when the module has errors. */
export async function shaderInspectAction(file: string, opts: { json?: boolean }): Promise<void> {
  const value = await callChannel('shader.inspect', { path: file });
  if (opts.json) printJson(value);
  else {
    writeOut(value.format === 'vbc' ? formatVbcInspection(value) : formatShaderInspection(value));
    writeErr(value.format === 'vbc' ? formatVbcDiagnostics(value) : formatSpirvDiagnostics(value));
  }
  if (!value.ok) process.exitCode = EXIT.problems;
}

/** `strata shader validate FILE [--json]`: one line per diagnostic on stdout (they are the command's findings); exit 1 on any error. */
export async function shaderValidateAction(file: string, opts: { json?: boolean }): Promise<void> {
  const value = await callChannel('shader.inspect', { path: file });
  const errors = value.diagnostics.filter((d) => (d.severity ?? 1) === 1).length;
  if (opts.json) printJson({ path: value.path, ok: value.ok, diagnostics: value.diagnostics });
  else {
    writeOut(value.format === 'vbc' ? formatVbcDiagnostics(value) : formatSpirvDiagnostics(value));
    writeOut(errors ? `${value.path}: ${errors} error${errors === 1 ? '' : 's'}\n` : `${value.path}: valid (logical layout and ids; not a full spirv-val)\n`);
  }
  if (errors) process.exitCode = EXIT.problems;
}
