import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { BINDING_TABLES, VBC_STAGES, baseTypeName, texelRankName, texelTypeName, type VbcStage } from '../../../shared/shader/vbc-enums';
import { countSeverities } from '../problems/diagnostic-severity';
import { lspSeverities } from './shader-labels';
import { STAGE_LABELS } from './shader-stages';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Badge, Card } from '../ui/Card';

type Vbc = NonNullable<ShaderInspectBytes['vbc']>;
type VbcReflection = Vbc['reflection'];
type Section = Vbc['sections'][number];
type Stage = NonNullable<ShaderInspectBytes['stages']>[number];
type VbcVariable = VbcReflection['vertexInputs'][number];
type VbcBinding = VbcReflection['bindings'][number];
type UniformMember = NonNullable<VbcReflection['uniform']>['members'][number];
type SubpassInput = VbcReflection['subpassInputs'][number];

const stageNames = (mask: number) => VBC_STAGES.filter((_, i) => mask & (1 << i)).join(' + ') || '—';
const dims = (d: readonly [number, number] | readonly number[], arraySize: number) => `${d[0]}×${d[1]}${arraySize !== 1 ? ` [${arraySize}]` : ''}`;

const SECTION_COLUMNS: readonly DataColumn<Section>[] = [
  { id: 'section', header: 'Section', rowHeader: true, cell: (sec) => sec.name },
  { id: 'offset', header: 'Offset', width: 'fit', align: 'end', cell: (sec) => sec.byteOffset },
  { id: 'bytes', header: 'Bytes', width: 'fit', align: 'end', cell: (sec) => sec.byteLength },
];

const stageErrors = (st: Stage) => countSeverities(lspSeverities(st.diagnostics)).error;

function stageColumns(onOpenStage: (stage: VbcStage) => void): DataColumn<Stage>[] {
  return [
    {
      id: 'stage',
      header: 'Stage',
      rowHeader: true,
      cell: (st) => (
        <>
          <span className="stage-chip">{st.stage}</span> {STAGE_LABELS[st.stage]}
        </>
      ),
    },
    { id: 'entry', header: 'Entry point', width: 'fit', cell: (st) => (st.reflection.entryPoints[0] ? <code>{st.reflection.entryPoints[0].name}</code> : '—') },
    {
      id: 'spirv',
      header: 'SPIR-V',
      width: 'fit',
      cell: (st) => (st.summary ? `${st.summary.version} · ${st.summary.instructionCount.toLocaleString('en-US')} instructions` : 'not SPIR-V'),
    },
    { id: 'bytes', header: 'Bytes', width: 'fit', align: 'end', cell: (st) => st.byteLength.toLocaleString('en-US') },
    {
      id: 'checks',
      header: 'Checks',
      width: 'fit',
      cell: (st) => {
        const errors = stageErrors(st);
        return errors ? <Badge tone="error">{errors === 1 ? '1 error' : `${errors} errors`}</Badge> : <Badge tone="ok">Valid layout</Badge>;
      },
    },
    {
      id: 'open',
      header: <span className="visually-hidden">Open</span>,
      width: 'fit',
      cell: (st) => (
        <button type="button" className="button button-compact" onClick={() => onOpenStage(st.stage)} data-testid={`vbc-open-${st.stage}`}>
          Disassembly
        </button>
      ),
    },
  ];
}

const VARIABLE_COLUMNS: readonly DataColumn<VbcVariable>[] = [
  { id: 'location', header: 'Location', width: 'fit', align: 'end', cell: (v) => v.location },
  { id: 'type', header: 'Type', cell: (v) => baseTypeName(v.baseType) },
  { id: 'dims', header: 'Dims', width: 'fit', cell: (v) => dims(v.dims, v.arraySize) },
];

const BINDING_COLUMNS: readonly DataColumn<VbcBinding>[] = [
  { id: 'slot', header: 'Slot', width: 'fit', align: 'end', cell: (b) => b.slot },
  { id: 'kind', header: 'Kind', width: 'fit', cell: (b) => <span className="kind-chip">{baseTypeName(b.baseType)}</span> },
  { id: 'stages', header: 'Stages', width: 'fit', cell: (b) => stageNames(b.stageMask) },
  {
    id: 'layout',
    header: 'Layout',
    cell: (b) =>
      b.layout === 'buffer' ? `${b.bufferSize} bytes` : `rank ${texelRankName(b.rank)}, ${texelTypeName(b.texelType)} ${b.texelSize}×${b.texelComponents}`,
  },
];

const UNIFORM_COLUMNS: readonly DataColumn<UniformMember>[] = [
  { id: 'offset', header: 'Offset', width: 'fit', align: 'end', cell: (m) => m.offset },
  { id: 'member', header: 'Member', rowHeader: true, cell: (m) => <code>{m.name}</code> },
  { id: 'type', header: 'Type', width: 'fit', cell: (m) => baseTypeName(m.baseType) },
  { id: 'dims', header: 'Dims', width: 'fit', cell: (m) => dims(m.dims, m.arraySize) },
];

const SUBPASS_COLUMNS: readonly DataColumn<SubpassInput>[] = [
  { id: 'index', header: 'Index', width: 'fit', align: 'end', cell: (_, i) => i },
  { id: 'texel', header: 'Texel type', cell: (sp) => texelTypeName(sp.texelType) },
  { id: 'components', header: 'Components', width: 'fit', align: 'end', cell: (sp) => sp.components },
];

/**
 * A VBC file at a glance (docs/vbc.md): its header, where each section lies, the reflection it
 * carries (as `strata shader inspect FILE.vbc` prints it), and its stages, each a SPIR-V module the
 * Interface, Bindings and Disassembly tabs show one at a time.
 */
export function ShaderVbcSummaryTab({ module, onOpenStage }: { module: ShaderInspectBytes; onOpenStage: (stage: VbcStage) => void }) {
  const vbc = module.vbc;
  const h = vbc?.header ?? null;
  return (
    <div className="shader-summary">
      <div className="shader-summary-row">
        <Card id="vbc-header" title="Header">
          {h === null ? (
            <p className="card-empty" data-testid="vbc-no-header">
              The header could not be read (see Problems): a VBC file starts with the 25-byte header <code>"VBC"</code>, version, shader type, five bytecode
              sizes and five binding table sizes.
            </p>
          ) : (
            <dl className="facts" data-testid="vbc-header">
              <dt>Magic</dt>
              <dd>
                <code>VBC</code> · little-endian
              </dd>
              <dt>Version</dt>
              <dd>{h.version}</dd>
              <dt>Shader type</dt>
              <dd>
                {h.shaderType}
                {h.shaderType === 1 ? ' (graphics)' : ''}
              </dd>
              <dt>Bytecode</dt>
              <dd>{VBC_STAGES.map((s, i) => `${s} ${h.bytecodeWords[i] ?? 0}`).join(' · ')} words</dd>
              <dt>Binding tables</dt>
              <dd>{BINDING_TABLES.map((t, i) => `${t} ${h.bindingTableSizes[i] ?? 0}`).join(' · ')}</dd>
            </dl>
          )}
        </Card>
        <Card id="vbc-sections" title="Sections">
          <DataTable
            label="Sections"
            testId="vbc-sections"
            dense
            columns={SECTION_COLUMNS}
            rows={vbc?.sections ?? []}
            rowKey={(sec) => sec.name}
            empty="None could be read."
          />
        </Card>
      </div>

      <Card id="vbc-stages" title="Stages">
        <DataTable
          label="Stages"
          testId="vbc-stages"
          columns={stageColumns(onOpenStage)}
          rows={module.stages ?? []}
          rowKey={(st) => st.stage}
          rowAttributes={(st) => ({ 'data-testid': 'vbc-stage', 'data-stage': st.stage })}
          empty="No stage bytecode could be read."
        />
      </Card>

      {vbc && <VbcReflectionCards reflection={vbc.reflection} />}
    </div>
  );
}

function VbcReflectionCards({ reflection: r }: { reflection: VbcReflection }) {
  return (
    <>
      <div className="shader-summary-row">
        {(
          [
            ['vbc-vertex-inputs', 'Vertex inputs', r.vertexInputs],
            ['vbc-fragment-outputs', 'Fragment outputs', r.fragmentOutputs],
          ] as const
        ).map(([id, title, list]) => (
          <Card key={id} id={id} title={title}>
            <DataTable<VbcVariable> label={title} testId={id} dense scroll={false} columns={VARIABLE_COLUMNS} rows={list} rowKey={(v) => v.location} />
          </Card>
        ))}
      </div>
      <Card id="vbc-bindings" title="Bindings">
        <DataTable
          label="Bindings"
          testId="vbc-bindings"
          dense
          columns={BINDING_COLUMNS}
          rows={r.bindings}
          rowKey={(b) => b.slot}
          rowAttributes={(b) => ({ 'data-testid': 'vbc-binding', 'data-slot': b.slot })}
        />
      </Card>
      <Card id="vbc-uniform" title={r.uniform ? `Uniform · ${r.uniform.size} bytes · ${stageNames(r.uniform.stageMask)}` : 'Uniform'}>
        <DataTable
          label="Uniform"
          testId="vbc-uniform"
          dense
          scroll={false}
          columns={UNIFORM_COLUMNS}
          rows={r.uniform?.members ?? []}
          rowKey={(m) => `${m.offset}-${m.name}`}
        />
      </Card>
      {r.subpassInputs.length > 0 && (
        <Card id="vbc-subpass-inputs" title="Subpass inputs">
          <DataTable
            label="Subpass inputs"
            testId="vbc-subpass-inputs"
            dense
            scroll={false}
            columns={SUBPASS_COLUMNS}
            rows={r.subpassInputs}
            rowKey={(_, i) => i}
          />
        </Card>
      )}
    </>
  );
}
