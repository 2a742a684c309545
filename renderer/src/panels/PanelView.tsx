import { useEffect, useRef } from 'react';
import { panelById } from './panel-list';
import { useNavigation } from '../navigation/navigation-store';
import { PanelContent } from './PanelContent';
import { PanelIcon } from '../ui/Icon';

/** The open panel: its heading (which takes focus when the panel is opened) and its content. */
export function PanelView() {
  const panel = panelById(useNavigation((s) => s.panel));
  const focusRequest = useNavigation((s) => s.focusRequest);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (focusRequest > 0) heading.current?.focus();
  }, [focusRequest]);

  return (
    <section className="panel" aria-labelledby="panel-heading" data-panel={panel.id}>
      <header className="panel-header">
        <div className="panel-header-icon">
          <PanelIcon panel={panel.id} size={20} />
        </div>
        <div>
          <h1 className="panel-heading" id="panel-heading" tabIndex={-1} ref={heading}>
            {panel.label}
          </h1>
          <p className="panel-summary">{panel.summary}</p>
        </div>
      </header>
      <div className="panel-body">
        <PanelContent panel={panel} />
      </div>
    </section>
  );
}
