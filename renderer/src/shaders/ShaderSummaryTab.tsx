import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { dash } from './shader-labels';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Card } from '../ui/Card';

type Module = ShaderInspectBytes;
type EntryPoint = Module['reflection']['entryPoints'][number];

function modes(e: EntryPoint): string {
  const list = e.executionModes.map((m) => (m.operands.length ? `${m.mode} ${m.operands.join(' ')}` : m.mode));
  // The WorkgroupSize built-in or LocalSizeId can make a dimension a specialization constant.
  if (e.workgroupSize?.some((d) => d.specId !== undefined))
    list.push(`workgroup size ${e.workgroupSize.map((d) => (d.specId !== undefined ? `${d.value} (SpecId ${d.specId})` : String(d.value))).join(' × ')}`);
  return list.join(', ') || '—';
}

const ENTRY_POINT_COLUMNS: readonly DataColumn<EntryPoint>[] = [
  { id: 'name', header: 'Name', rowHeader: true, cellClassName: 'col-fit', cell: (e) => <code>{e.name}</code> },
  { id: 'stage', header: 'Stage', width: 'fit', cell: (e) => <span className="stage-chip">{e.stage}</span> },
  { id: 'model', header: 'Execution model', width: 'fit', cell: (e) => e.executionModel },
  { id: 'modes', header: 'Modes', cellClassName: 'shader-modes', cell: modes },
];

/** Header facts, entry points with their stages, counts, and what the module asks of a device. */
export function ShaderSummaryTab({ module }: { module: Module }) {
  const s = module.summary!;
  const r = module.reflection;
  const stats: [string, number][] = [
    ['Entry points', r.entryPoints.length],
    ['Inputs', r.entryPoints.reduce((n, e) => n + e.inputs.length, 0)],
    ['Outputs', r.entryPoints.reduce((n, e) => n + e.outputs.length, 0)],
    ['Descriptor bindings', r.descriptorBindings.length],
    ['Push constant blocks', r.pushConstants.length],
    ['Specialization constants', r.specializationConstants.length],
    ['Instructions', s.instructionCount],
  ];
  return (
    <div className="shader-summary">
      <ul className="stat-tiles" aria-label="Counts" data-testid="shader-counts">
        {stats.map(([label, value]) => (
          <li className="stat-tile" key={label}>
            <span className="stat-value">{value.toLocaleString('en-US')}</span>
            <span className="stat-label">{label}</span>
          </li>
        ))}
      </ul>

      <Card id="shader-entry-points" title="Entry points">
        <DataTable
          label="Entry points"
          testId="shader-entry-points"
          columns={ENTRY_POINT_COLUMNS}
          rows={r.entryPoints}
          rowKey={(e) => `${e.id}-${e.executionModel}`}
          rowAttributes={(e) => ({ 'data-testid': 'shader-entry-point', 'data-name': e.name, 'data-stage': e.stage })}
          empty="None: this module has no OpEntryPoint (a library module, or not finished)."
        />
      </Card>

      <div className="shader-summary-row">
        <Card id="shader-header" title="Header">
          <dl className="facts" data-testid="shader-header">
            <dt>Magic</dt>
            <dd>
              <code>0x07230203</code> · {s.endianness}-endian
            </dd>
            <dt>SPIR-V version</dt>
            <dd>{s.version}</dd>
            <dt>Generator</dt>
            <dd>{s.generator}</dd>
            <dt>Bound</dt>
            <dd>{s.bound.toLocaleString('en-US')} (ids below it)</dd>
            <dt>Memory model</dt>
            <dd>
              {dash(s.addressingModel)} · {dash(s.memoryModel)}
            </dd>
          </dl>
        </Card>
        <Card id="shader-requirements" title="Requires">
          <dl className="facts">
            <dt>Capabilities</dt>
            <dd>
              <ChipList items={s.capabilities} />
            </dd>
            <dt>Extensions</dt>
            <dd>
              <ChipList items={s.extensions} />
            </dd>
            <dt>Imports</dt>
            <dd>
              <ChipList items={s.extInstImports} />
            </dd>
          </dl>
        </Card>
      </div>
    </div>
  );
}

function ChipList({ items }: { items: readonly string[] }) {
  if (!items.length) return <span className="muted">None</span>;
  return (
    <span className="chip-list">
      {items.map((i) => (
        <code className="shader-chip" key={i}>
          {i}
        </code>
      ))}
    </span>
  );
}
