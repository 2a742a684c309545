import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { byLocation, dash, variableName } from './shader-labels';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Card } from '../ui/Card';

type EntryPoint = ShaderInspectBytes['reflection']['entryPoints'][number];
type Variable = EntryPoint['inputs'][number];

/** Each entry point's inputs and outputs: location, component, built-in, type, name (of a module, or of one VBC stage). */
export function ShaderInterfaceTab({ module }: { module: Pick<ShaderInspectBytes, 'reflection'> }) {
  const entries = module.reflection.entryPoints;
  if (entries.length === 0) return <p className="card-empty">The module has no entry points, so it has no stage interface.</p>;
  return (
    <div className="shader-stack">
      {entries.map((e, i) => (
        <div className="shader-stack" key={`${e.id}-${e.executionModel}`}>
          {(['inputs', 'outputs'] as const).map((which) => (
            <Card key={which} id={`shader-${which}-${i}`} title={`${which === 'inputs' ? 'Inputs' : 'Outputs'} of ${e.name} (${e.stage})`}>
              <VariableTable variables={e[which]} testId={`shader-${which}`} label={`${which === 'inputs' ? 'Inputs' : 'Outputs'} of ${e.name}`} />
            </Card>
          ))}
        </div>
      ))}
    </div>
  );
}

const VARIABLE_COLUMNS: readonly DataColumn<Variable>[] = [
  { id: 'location', header: 'Location', width: 'fit', align: 'end', cell: (v) => dash(v.location) },
  { id: 'component', header: 'Component', width: 'fit', align: 'end', cell: (v) => dash(v.component) },
  {
    id: 'builtIn',
    header: 'Built-in',
    width: 'fit',
    cell: (v) =>
      v.builtIns.length
        ? v.builtIns.map((b) => (
            <span className="shader-chip" key={b}>
              {b}
            </span>
          ))
        : '—',
  },
  {
    id: 'type',
    header: 'Type',
    width: 'fit',
    cell: (v) => (
      <>
        {v.qualifiers.map((q) => (
          <span className="qualifier" key={q}>
            {q.toLowerCase()}{' '}
          </span>
        ))}
        <code>{v.type}</code>
      </>
    ),
  },
  {
    id: 'name',
    header: 'Name',
    rowHeader: true,
    cell: (v) => (
      <>
        <code>{variableName(v)}</code> <span className="muted id-note">%{v.id}</span>
      </>
    ),
  },
];

function VariableTable({ variables, testId, label }: { variables: readonly Variable[]; testId: string; label: string }) {
  return <DataTable label={label} dense testId={testId} columns={VARIABLE_COLUMNS} rows={byLocation(variables)} rowKey={(v) => v.id} />;
}
