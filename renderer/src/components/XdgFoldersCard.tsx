import { useAppInfo } from '../stores/app-info-store';
import { XDG_SOURCE_LABELS, xdgRows } from '../about/xdg-rows';
import { Badge, Card } from './Card';
import { LoadingLine } from './LoadingLine';
import { PathText } from './PathText';

/** The XDG folders the loader resolves on Linux; errors are shown once, by the variables card. */
export function XdgFoldersCard() {
  const state = useAppInfo((s) => s.envSummary);

  return (
    <Card id="xdg" title="XDG folders">
      {state.status === 'error' ? (
        <p className="muted">Not available: see the error above.</p>
      ) : state.status !== 'ready' ? (
        <LoadingLine text="Reading the environment…" />
      ) : state.value.xdg === null ? (
        <p className="card-empty">On this platform the loader reads the registry instead of XDG folders.</p>
      ) : (
        <>
          <p className="card-note">
            The loader looks for layer and driver manifests in the <code>vulkan/</code> folder under the config and data folders.
          </p>
          <div className="table-scroll">
            <table className="table" data-testid="xdg-folders">
              <thead>
                <tr>
                  <th scope="col">Folder</th>
                  <th scope="col">Path</th>
                  <th scope="col" className="col-fit">
                    Source
                  </th>
                </tr>
              </thead>
              <tbody>
                {xdgRows(state.value.xdg).map((row) => (
                  <tr key={row.variable}>
                    <th scope="row">
                      <span className="row-label">{row.label}</span>
                      <code className="row-variable">{row.variable}</code>
                    </th>
                    <td className="path">
                      {row.values.length === 0 ? (
                        <span className="muted">—</span>
                      ) : (
                        row.values.map((v, i) => (
                          <span className="path-entry" key={`${i}:${v}`}>
                            <PathText path={v} />
                          </span>
                        ))
                      )}
                    </td>
                    <td>
                      <Badge tone={row.source === 'environment' ? 'accent' : 'neutral'}>{XDG_SOURCE_LABELS[row.source]}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Card>
  );
}
