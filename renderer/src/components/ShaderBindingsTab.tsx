import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { arrayDims, dash, memberRows } from '../shaders/shader-labels';
import type { BlockMember } from '../../../shared/shader/spirv-reflect';
import { Card } from './Card';

type Reflection = ShaderInspectBytes['reflection'];
type Binding = Reflection['descriptorBindings'][number];

function kindText(d: Binding): string {
  return d.kind + (d.inputAttachmentIndex !== undefined ? ` #${d.inputAttachmentIndex}` : '') + (d.imageFormat ? ` (${d.imageFormat})` : '');
}

/** Descriptor sets and bindings, block layouts, push constants and specialization constants (of a module, or of one VBC stage). */
export function ShaderBindingsTab({ module }: { module: Pick<ShaderInspectBytes, 'reflection'> }) {
  const r = module.reflection;
  const blocks = r.descriptorBindings.filter((d) => d.block);
  return (
    <div className="shader-stack">
      <Card id="shader-descriptors" title="Descriptor bindings">
        {r.descriptorBindings.length === 0 ? (
          <p className="card-empty">None: the module uses no descriptors.</p>
        ) : (
          <div className="table-scroll">
            <table className="table table-dense" data-testid="shader-bindings">
              <thead>
                <tr>
                  <th scope="col" className="col-fit num">
                    Set
                  </th>
                  <th scope="col" className="col-fit num">
                    Binding
                  </th>
                  <th scope="col" className="col-fit">
                    Kind
                  </th>
                  <th scope="col" className="col-fit num">
                    Array
                  </th>
                  <th scope="col">Type</th>
                  <th scope="col">Name</th>
                  <th scope="col" className="col-fit num">
                    Block size
                  </th>
                </tr>
              </thead>
              <tbody>
                {r.descriptorBindings.map((d) => (
                  <tr key={d.id} data-testid="shader-binding" data-set={d.set} data-binding={d.binding}>
                    <td className="col-fit num">{d.set}</td>
                    <td className="col-fit num">{d.binding}</td>
                    <td className="col-fit">
                      <span className="kind-chip">{kindText(d)}</span>
                      {d.access !== 'read-write' && d.kind !== 'uniform buffer' && <span className="muted access-note"> {d.access}</span>}
                    </td>
                    <td className="col-fit num">{d.arraySize.length ? arrayDims(d.arraySize) : '1'}</td>
                    <td>
                      <code>{d.block ? `struct ${d.block.typeName}` : d.type}</code>
                    </td>
                    <th scope="row">
                      <code>{d.name || d.block?.typeName || `_${d.id}`}</code>
                    </th>
                    <td className="col-fit num">
                      {d.block ? `${d.block.size} B${d.block.runtimeArrayStride !== undefined ? ` + ${d.block.runtimeArrayStride} B × n` : ''}` : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      {blocks.map((d) => (
        <Card key={d.id} id={`shader-block-${d.id}`} title={`Block ${d.block!.typeName} · set ${d.set}, binding ${d.binding} · ${d.block!.size} bytes`}>
          <MemberTable members={d.block!.members} />
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
              <MemberTable members={p.block.members} />
            </div>
          ))
        )}
      </Card>

      <Card id="shader-spec-constants" title="Specialization constants">
        {r.specializationConstants.length === 0 ? (
          <p className="card-empty">None.</p>
        ) : (
          <div className="table-scroll">
            <table className="table table-dense" data-testid="shader-spec-constants">
              <thead>
                <tr>
                  <th scope="col" className="col-fit num">
                    SpecId
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col" className="col-fit">
                    Type
                  </th>
                  <th scope="col" className="col-fit">
                    Default
                  </th>
                </tr>
              </thead>
              <tbody>
                {r.specializationConstants.map((c) => (
                  <tr key={c.id}>
                    <td className="col-fit num">{c.specId}</td>
                    <th scope="row">
                      <code>{c.name || `_${c.id}`}</code>
                    </th>
                    <td className="col-fit">
                      <code>{c.type}</code>
                    </td>
                    <td className="col-fit">
                      <code>{String(c.defaultValue)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}

function MemberTable({ members }: { members: readonly BlockMember[] }) {
  const rows = memberRows(members);
  return (
    <div className="table-scroll">
      <table className="table table-dense member-table">
        <thead>
          <tr>
            <th scope="col" className="col-fit num">
              Offset
            </th>
            <th scope="col" className="col-fit num">
              Size
            </th>
            <th scope="col">Member</th>
            <th scope="col">Type</th>
            <th scope="col" className="col-fit">
              Layout
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.name} data-depth={m.depth}>
              <td className="col-fit num">{dash(m.offset)}</td>
              <td className="col-fit num">{dash(m.size)}</td>
              <th scope="row" className={`member-name depth-${Math.min(m.depth, 4)}`}>
                <code>{m.name}</code>
              </th>
              <td>
                <code>{m.type}</code>
              </td>
              <td className="col-fit muted">{m.layout || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
