import type { PanelDescription } from '../panels/panel-list';
import { PanelIcon } from './Icon';

/** A panel that is not built yet: says what it will show, and shows nothing made up. */
export function EmptyPanel({ panel }: { panel: PanelDescription }) {
  return (
    <div className="empty-panel">
      <div className="empty-panel-icon">
        <PanelIcon panel={panel.id} size={28} />
      </div>
      <p className="empty-panel-title">{panel.label} is not available yet</p>
      <p className="empty-panel-text">When this panel is built, it will show:</p>
      <ul className="empty-panel-list">
        {panel.willShow.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
