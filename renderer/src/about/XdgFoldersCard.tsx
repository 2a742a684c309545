import { useAppInfo } from './app-info-store';
import { XDG_SOURCE_LABELS, xdgRows, type XdgRow } from './xdg-rows';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Badge, Card } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { PathText } from '../ui/PathText';

const XDG_COLUMNS: readonly DataColumn<XdgRow>[] = [
  {
    id: 'folder',
    header: 'Folder',
    rowHeader: true,
    cell: (row) => (
      <>
        <span className="row-label">{row.label}</span>
        <code className="row-variable">{row.variable}</code>
      </>
    ),
  },
  {
    id: 'path',
    header: 'Path',
    cellClassName: 'path',
    cell: (row) =>
      row.values.length === 0 ? (
        <span className="muted">—</span>
      ) : (
        row.values.map((v, i) => (
          <span className="path-entry" key={`${i}:${v}`}>
            <PathText path={v} />
          </span>
        ))
      ),
  },
  {
    id: 'source',
    header: 'Source',
    headerClassName: 'col-fit',
    cell: (row) => <Badge tone={row.source === 'environment' ? 'accent' : 'neutral'}>{XDG_SOURCE_LABELS[row.source]}</Badge>,
  },
];

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
          <DataTable label="XDG folders" testId="xdg-folders" columns={XDG_COLUMNS} rows={xdgRows(state.value.xdg)} rowKey={(row) => row.variable} />
        </>
      )}
    </Card>
  );
}
