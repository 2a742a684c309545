import { useEffect, useState } from 'react';
import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { LocationStatus, ManifestKind } from '../../../shared/loader/search-paths';
import { KIND_ORDER } from '../problems/problem-groups';
import { useDiscovery } from './discovery-store';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Badge } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { PathText } from '../ui/PathText';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { ChevronIcon } from '../ui/ViewIcons';
import { whenIdle } from '../ui/when-idle';

const KIND_TITLES: Readonly<Record<ManifestKind, string>> = {
  implicit_layer: 'Implicit layers',
  explicit_layer: 'Explicit layers',
  driver: 'Drivers (ICDs)',
};

const SOURCE_LABELS: Readonly<Record<LocationStatus['source'], string>> = {
  environment: 'Set in environment',
  default: 'Default',
  build: 'Built into the loader',
  registry: 'Registry',
  bundle: 'App bundle',
  settings: 'Loader settings file (additional_drivers)',
};

function manifestsAt(inventory: ManifestInventory | null, kind: ManifestKind, location: string): number | null {
  if (!inventory) return null;
  return (inventory.manifests[kind] ?? []).filter((m) => m.location === location).length;
}

function locationColumns(kind: ManifestKind, inventory: ManifestInventory | null): DataColumn<LocationStatus>[] {
  return [
    { id: 'index', header: '#', headerClassName: 'col-fit', cellClassName: 'search-order-index', cell: (_, i) => i + 1 },
    {
      id: 'location',
      header: 'Location',
      cellClassName: 'path',
      cell: (loc) => (
        <>
          <PathText path={loc.path} />
          {loc.entry !== 'folder' && <span className="muted search-order-entry"> ({loc.entry === 'file' ? 'file' : 'registry key'})</span>}
          {loc.alsoFrom.length > 0 && <span className="search-order-also">Also named by {loc.alsoFrom.join(', ')} (read once)</span>}
        </>
      ),
    },
    {
      id: 'origin',
      header: 'Origin',
      headerClassName: 'col-fit',
      cell: (loc) => (
        <>
          <code className="code-chip">{loc.origin}</code>
          <span className="search-order-source">{SOURCE_LABELS[loc.source]}</span>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      headerClassName: 'col-fit',
      cell: (loc) => {
        if (loc.exists === false) return <Badge tone="neutral">Not there</Badge>;
        if (loc.exists === null) return <Badge tone="neutral">Not checked</Badge>;
        const found = manifestsAt(inventory, kind, loc.path);
        return <Badge tone={found ? 'ok' : 'neutral'}>{found === null ? 'Exists' : `${found} manifest${found === 1 ? '' : 's'}`}</Badge>;
      },
    },
  ];
}

function LocationTable({ kind, locations, inventory }: { kind: ManifestKind; locations: readonly LocationStatus[]; inventory: ManifestInventory | null }) {
  return (
    <div className="search-order-kind">
      <h3 className="search-order-title">
        {KIND_TITLES[kind]} <span className="layer-group-count">{locations.length}</span>
      </h3>
      <DataTable
        label={KIND_TITLES[kind]}
        testId={`search-order-${kind}`}
        scrollClassName="search-order-scroll"
        columns={locationColumns(kind, inventory)}
        rows={locations}
        rowKey={(loc, i) => `${i}:${loc.path}`}
        rowAttributes={(loc) => ({ className: loc.exists === false ? 'is-missing' : undefined })}
        empty="No location: the loader searches nothing for this kind (an empty override variable?)."
      />
    </div>
  );
}

/**
 * Where the loader looks, in its order (discovery.paths), folded away by default: the answer to
 * "why is (or isn't) my layer found?". A native <details>, so it opens with Enter/Space as is.
 * Its tables (a few hundred elements, a third of the Layers view) are built once the page is idle
 * after discovery's answer is on screen, or at once when it is opened (issue #19: first render);
 * folded, they show nothing meanwhile, and find-in-page finds them afterwards as before.
 */
export function SearchOrderSection() {
  const paths = useDiscovery((s) => s.paths);
  const manifests = useDiscovery((s) => s.manifests);
  const retry = useDiscovery((s) => s.loadPaths);
  const inventory = manifests.status === 'ready' ? manifests.value : null;
  const [built, setBuilt] = useState(false);
  const listed = inventory !== null;
  useEffect(() => (built || !listed ? undefined : whenIdle(() => setBuilt(true), 1000)), [built, listed]);

  return (
    <details
      className="card search-order"
      data-testid="search-order"
      onToggle={(e) => {
        if (e.currentTarget.open) setBuilt(true);
      }}
    >
      <summary className="search-order-summary">
        <ChevronIcon />
        <span className="card-title">Search order</span>
        <span className="muted search-order-hint">Every folder and file the loader reads, in the order it reads them</span>
      </summary>
      <div className="card-body">
        {!built ? null : paths.status === 'error' ? (
          <RequestErrorMessage title="Could not compute the search paths" error={paths.error} onRetry={() => void retry()} />
        ) : paths.status !== 'ready' ? (
          <LoadingLine text="Computing the search paths…" />
        ) : (
          <>
            {paths.value.elevated && (
              <p className="card-note">Strata runs with elevated privileges: the loader ignores the user’s folders and most variables.</p>
            )}
            {KIND_ORDER.map((kind) => (
              <LocationTable key={kind} kind={kind} locations={paths.value.locations[kind]} inventory={inventory} />
            ))}
          </>
        )}
      </div>
    </details>
  );
}
