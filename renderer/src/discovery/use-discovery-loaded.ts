import { useEffect } from 'react';
import { useDiscovery } from './discovery-store';

/** Loads discovery the first time a panel that needs it opens; Refresh reloads it after that. */
export function useDiscoveryLoaded() {
  const manifestsIdle = useDiscovery((s) => s.manifests.status === 'idle');
  const pathsIdle = useDiscovery((s) => s.paths.status === 'idle');
  useEffect(() => {
    if (manifestsIdle) void useDiscovery.getState().loadManifests();
  }, [manifestsIdle]);
  useEffect(() => {
    if (pathsIdle) void useDiscovery.getState().loadPaths();
  }, [pathsIdle]);
}
