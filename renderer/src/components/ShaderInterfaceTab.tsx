import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { byLocation, dash, variableName } from '../shaders/shader-labels';
import { Card } from './Card';

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
              <VariableTable variables={e[which]} testId={`shader-${which}`} />
            </Card>
          ))}
        </div>
      ))}
    </div>
  );
}

function VariableTable({ variables, testId }: { variables: readonly Variable[]; testId: string }) {
  if (variables.length === 0) return <p className="card-empty">None.</p>;
  return (
    <div className="table-scroll">
      <table className="table table-dense" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col" className="col-fit num">
              Location
            </th>
            <th scope="col" className="col-fit num">
              Component
            </th>
            <th scope="col" className="col-fit">
              Built-in
            </th>
            <th scope="col" className="col-fit">
              Type
            </th>
            <th scope="col">Name</th>
          </tr>
        </thead>
        <tbody>
          {byLocation(variables).map((v) => (
            <tr key={v.id}>
              <td className="col-fit num">{dash(v.location)}</td>
              <td className="col-fit num">{dash(v.component)}</td>
              <td className="col-fit">
                {v.builtIns.length
                  ? v.builtIns.map((b) => (
                      <span className="shader-chip" key={b}>
                        {b}
                      </span>
                    ))
                  : '—'}
              </td>
              <td className="col-fit">
                {v.qualifiers.map((q) => (
                  <span className="qualifier" key={q}>
                    {q.toLowerCase()}{' '}
                  </span>
                ))}
                <code>{v.type}</code>
              </td>
              <th scope="row">
                <code>{variableName(v)}</code> <span className="muted id-note">%{v.id}</span>
              </th>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
