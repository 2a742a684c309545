import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { arrayDims, dash, memberRows } from './shader-labels';
import type { BlockMember } from '../../../shared/shader/spirv-reflect';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Card } from '../ui/Card';

type Reflection = ShaderInspectBytes['reflection'];
type Binding = Reflection['descriptorBindings'][number];
type SpecConstant = Reflection['specializationConstants'][number];
type MemberRow = ReturnType<typeof memberRows>[number];

function kindText(d: Binding): string {
  return d.kind + (d.inputAttachmentIndex !== undefined ? ` #${d.inputAttachmentIndex}` : '') + (d.imageFormat ? ` (${d.imageFormat})` : '');
}

const BINDING_COLUMNS: readonly DataColumn<Binding>[] = [
  { id: 'set', header: 'Set', width: 'fit', align: 'end', cell: (d) => d.set },
  { id: 'binding', header: 'Binding', width: 'fit', align: 'end', cell: (d) => d.binding },
  {
    id: 'kind',
    header: 'Kind',
    width: 'fit',
    cell: (d) => (
      <>
        <span className="kind-chip">{kindText(d)}</span>
        {d.access !== 'read-write' && d.kind !== 'uniform buffer' && <span className="muted access-note"> {d.access}</span>}
      </>
    ),
  },
  { id: 'array', header: 'Array', width: 'fit', align: 'end', cell: (d) => (d.arraySize.length ? arrayDims(d.arraySize) : '1') },
  { id: 'type', header: 'Type', cell: (d) => <code>{d.block ? `struct ${d.block.typeName}` : d.type}</code> },
  { id: 'name', header: 'Name', rowHeader: true, cell: (d) => <code>{d.name || d.block?.typeName || `_${d.id}`}</code> },
  {
    id: 'size',
    header: 'Block size',
    width: 'fit',
    align: 'end',
    cell: (d) => (d.block ? `${d.block.size} B${d.block.runtimeArrayStride !== undefined ? ` + ${d.block.runtimeArrayStride} B × n` : ''}` : '—'),
  },
];

const SPEC_CONSTANT_COLUMNS: readonly DataColumn<SpecConstant>[] = [
  { id: 'specId', header: 'SpecId', width: 'fit', align: 'end', cell: (c) => c.specId },
  { id: 'name', header: 'Name', rowHeader: true, cell: (c) => <code>{c.name || `_${c.id}`}</code> },
  { id: 'type', header: 'Type', width: 'fit', cell: (c) => <code>{c.type}</code> },
  { id: 'default', header: 'Default', width: 'fit', cell: (c) => <code>{String(c.defaultValue)}</code> },
];

const MEMBER_COLUMNS: readonly DataColumn<MemberRow>[] = [
  { id: 'offset', header: 'Offset', width: 'fit', align: 'end', cell: (m) => dash(m.offset) },
  { id: 'size', header: 'Size', width: 'fit', align: 'end', cell: (m) => dash(m.size) },
  { id: 'member', header: 'Member', rowHeader: true, cellClassName: (m) => `member-name depth-${Math.min(m.depth, 4)}`, cell: (m) => <code>{m.name}</code> },
  { id: 'type', header: 'Type', cell: (m) => <code>{m.type}</code> },
  { id: 'layout', header: 'Layout', width: 'fit', cellClassName: 'muted', cell: (m) => m.layout || '—' },
];

/** Descriptor sets and bindings, block layouts, push constants and specialization constants (of a module, or of one VBC stage). */
export function ShaderBindingsTab({ module }: { module: Pick<ShaderInspectBytes, 'reflection'> }) {
  const r = module.reflection;
  const blocks = r.descriptorBindings.filter((d) => d.block);
  return (
    <div className="shader-stack">
      <Card id="shader-descriptors" title="Descriptor bindings">
        <DataTable
          label="Descriptor bindings"
          testId="shader-bindings"
          dense
          columns={BINDING_COLUMNS}
          rows={r.descriptorBindings}
          rowKey={(d) => d.id}
          rowAttributes={(d) => ({ 'data-testid': 'shader-binding', 'data-set': d.set, 'data-binding': d.binding })}
          empty="None: the module uses no descriptors."
        />
      </Card>

      {blocks.map((d) => (
        <Card key={d.id} id={`shader-block-${d.id}`} title={`Block ${d.block!.typeName} · set ${d.set}, binding ${d.binding} · ${d.block!.size} bytes`}>
          <MemberTable members={d.block!.members} typeName={d.block!.typeName} />
        </Card>
      ))}

      <Card id="shader-push-constants" title="Push constants">
        {r.pushConstants.length === 0 ? (
          <p className="card-empty">None.</p>
        ) : (
          r.pushConstants.map((p) => (
            <div key={p.id} data-testid="shader-push-constant">
              <p className="card-note">
                <code>{p.name || p.block.typeName}</code> — struct <code>{p.block.typeName}</code>, {p.block.size} bytes
              </p>
              <MemberTable members={p.block.members} typeName={p.block.typeName} />
            </div>
          ))
        )}
      </Card>

      <Card id="shader-spec-constants" title="Specialization constants">
        <DataTable
          label="Specialization constants"
          testId="shader-spec-constants"
          dense
          columns={SPEC_CONSTANT_COLUMNS}
          rows={r.specializationConstants}
          rowKey={(c) => c.id}
        />
      </Card>
    </div>
  );
}

function MemberTable({ members, typeName }: { members: readonly BlockMember[]; typeName: string }) {
  return (
    <DataTable
      label={`Members of ${typeName}`}
      dense
      className="member-table"
      columns={MEMBER_COLUMNS}
      rows={memberRows(members)}
      rowKey={(m) => m.name}
      rowAttributes={(m) => ({ 'data-depth': m.depth })}
    />
  );
}
