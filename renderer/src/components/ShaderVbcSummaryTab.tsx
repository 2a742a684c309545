import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { BINDING_TABLES, VBC_STAGES, baseTypeName, texelRankName, texelTypeName, type VbcStage } from '../../../shared/shader/vbc-enums';
import { countSeverities } from '../problems/diagnostic-severity';
import { lspSeverities } from '../shaders/shader-labels';
import { STAGE_LABELS } from '../shaders/shader-stages';
import { Badge, Card } from './Card';

type Vbc = NonNullable<ShaderInspectBytes['vbc']>;
type VbcReflection = Vbc['reflection'];

const stageNames = (mask: number) => VBC_STAGES.filter((_, i) => mask & (1 << i)).join(' + ') || '—';
const dims = (d: readonly [number, number] | readonly number[], arraySize: number) => `${d[0]}×${d[1]}${arraySize !== 1 ? ` [${arraySize}]` : ''}`;

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
          {!vbc?.sections.length ? (
            <p className="card-empty">None could be read.</p>
          ) : (
            <div className="table-scroll">
              <table className="table table-dense" data-testid="vbc-sections">
                <thead>
                  <tr>
                    <th scope="col">Section</th>
                    <th scope="col" className="col-fit num">
                      Offset
                    </th>
                    <th scope="col" className="col-fit num">
                      Bytes
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {vbc.sections.map((s) => (
                    <tr key={s.name}>
                      <th scope="row">{s.name}</th>
                      <td className="col-fit num">{s.byteOffset}</td>
                      <td className="col-fit num">{s.byteLength}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </div>

      <Card id="vbc-stages" title="Stages">
        {!module.stages?.length ? (
          <p className="card-empty">No stage bytecode could be read.</p>
        ) : (
          <div className="table-scroll">
            <table className="table" data-testid="vbc-stages">
              <thead>
                <tr>
                  <th scope="col">Stage</th>
                  <th scope="col" className="col-fit">
                    Entry point
                  </th>
                  <th scope="col" className="col-fit">
                    SPIR-V
                  </th>
                  <th scope="col" className="col-fit num">
                    Bytes
                  </th>
                  <th scope="col" className="col-fit">
                    Checks
                  </th>
                  <th scope="col" className="col-fit">
                    <span className="visually-hidden">Open</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {module.stages.map((s) => {
                  const errors = countSeverities(lspSeverities(s.diagnostics)).error;
                  const e = s.reflection.entryPoints[0];
                  return (
                    <tr key={s.stage} data-testid="vbc-stage" data-stage={s.stage}>
                      <th scope="row">
                        <span className="stage-chip">{s.stage}</span> {STAGE_LABELS[s.stage]}
                      </th>
                      <td className="col-fit">{e ? <code>{e.name}</code> : '—'}</td>
                      <td className="col-fit">
                        {s.summary ? `${s.summary.version} · ${s.summary.instructionCount.toLocaleString('en-US')} instructions` : 'not SPIR-V'}
                      </td>
                      <td className="col-fit num">{s.byteLength.toLocaleString('en-US')}</td>
                      <td className="col-fit">
                        {errors ? <Badge tone="error">{errors === 1 ? '1 error' : `${errors} errors`}</Badge> : <Badge tone="ok">Valid layout</Badge>}
                      </td>
                      <td className="col-fit">
                        <button type="button" className="button button-compact" onClick={() => onOpenStage(s.stage)} data-testid={`vbc-open-${s.stage}`}>
                          Disassembly
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
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
            {list.length === 0 ? (
              <p className="card-empty">None.</p>
            ) : (
              <table className="table table-dense" data-testid={id}>
                <thead>
                  <tr>
                    <th scope="col" className="col-fit num">
                      Location
                    </th>
                    <th scope="col">Type</th>
                    <th scope="col" className="col-fit">
                      Dims
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((v) => (
                    <tr key={v.location}>
                      <td className="col-fit num">{v.location}</td>
                      <td>{baseTypeName(v.baseType)}</td>
                      <td className="col-fit">{dims(v.dims, v.arraySize)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        ))}
      </div>
      <Card id="vbc-bindings" title="Bindings">
        {r.bindings.length === 0 ? (
          <p className="card-empty">None.</p>
        ) : (
          <div className="table-scroll">
            <table className="table table-dense" data-testid="vbc-bindings">
              <thead>
                <tr>
                  <th scope="col" className="col-fit num">
                    Slot
                  </th>
                  <th scope="col" className="col-fit">
                    Kind
                  </th>
                  <th scope="col" className="col-fit">
                    Stages
                  </th>
                  <th scope="col">Layout</th>
                </tr>
              </thead>
              <tbody>
                {r.bindings.map((b) => (
                  <tr key={b.slot} data-testid="vbc-binding" data-slot={b.slot}>
                    <td className="col-fit num">{b.slot}</td>
                    <td className="col-fit">
                      <span className="kind-chip">{baseTypeName(b.baseType)}</span>
                    </td>
                    <td className="col-fit">{stageNames(b.stageMask)}</td>
                    <td>
                      {b.layout === 'buffer'
                        ? `${b.bufferSize} bytes`
                        : `rank ${texelRankName(b.rank)}, ${texelTypeName(b.texelType)} ${b.texelSize}×${b.texelComponents}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card id="vbc-uniform" title={r.uniform ? `Uniform · ${r.uniform.size} bytes · ${stageNames(r.uniform.stageMask)}` : 'Uniform'}>
        {!r.uniform ? (
          <p className="card-empty">None.</p>
        ) : (
          <table className="table table-dense" data-testid="vbc-uniform">
            <thead>
              <tr>
                <th scope="col" className="col-fit num">
                  Offset
                </th>
                <th scope="col">Member</th>
                <th scope="col" className="col-fit">
                  Type
                </th>
                <th scope="col" className="col-fit">
                  Dims
                </th>
              </tr>
            </thead>
            <tbody>
              {r.uniform.members.map((m) => (
                <tr key={`${m.offset}-${m.name}`}>
                  <td className="col-fit num">{m.offset}</td>
                  <th scope="row">
                    <code>{m.name}</code>
                  </th>
                  <td className="col-fit">{baseTypeName(m.baseType)}</td>
                  <td className="col-fit">{dims(m.dims, m.arraySize)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {r.subpassInputs.length > 0 && (
        <Card id="vbc-subpass-inputs" title="Subpass inputs">
          <table className="table table-dense" data-testid="vbc-subpass-inputs">
            <thead>
              <tr>
                <th scope="col" className="col-fit num">
                  Index
                </th>
                <th scope="col">Texel type</th>
                <th scope="col" className="col-fit num">
                  Components
                </th>
              </tr>
            </thead>
            <tbody>
              {r.subpassInputs.map((s, i) => (
                <tr key={i}>
                  <td className="col-fit num">{i}</td>
                  <td>{texelTypeName(s.texelType)}</td>
                  <td className="col-fit num">{s.components}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </>
  );
}
