import { useDiscovery } from './discovery-store';
import { RefreshButton } from '../ui/RefreshButton';

/** Reads the search paths and every manifest again (after the user edited a file, say). */
export function DiscoveryRefreshButton() {
  const refreshing = useDiscovery((s) => s.refreshing);
  const refresh = useDiscovery((s) => s.refresh);
  return <RefreshButton busy={refreshing} onRefresh={() => void refresh()} />;
}
