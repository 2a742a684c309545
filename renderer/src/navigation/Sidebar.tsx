import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PANELS, panelIndex, shortcutDigit, type PanelGroup } from '../panels/panel-list';
import { rovingAction } from './roving-focus';
import { useNavigation } from './navigation-store';
import { PanelIcon, StrataMark } from '../ui/Icon';
import { ProblemsNavBadge } from '../problems/ProblemsNavBadge';
import { DraftNavBadge } from '../configurator/DraftNavBadge';
import { ThemeSwitcher } from '../theme/ThemeSwitcher';

const GROUPS: readonly { group: PanelGroup; title: string | null }[] = [
  { group: 'configure', title: 'Configure' },
  { group: 'inspect', title: 'Inspect' },
  { group: 'app', title: null },
];

/**
 * The panel list: one Tab stop (roving tabindex) across all groups, arrows move, Enter/Space open.
 * The list is flat for the keyboard even though it is drawn in groups.
 */
export function Sidebar() {
  const active = useNavigation((s) => s.panel);
  const open = useNavigation((s) => s.open);
  const [focusIndex, setFocusIndex] = useState(() => panelIndex(active));
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  // Opening a panel another way (shortcut, host request) makes it the list's Tab stop.
  useEffect(() => setFocusIndex(panelIndex(active)), [active]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = rovingAction(event.key, index, PANELS.length);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'move') {
      setFocusIndex(action.index);
      items.current[action.index]?.focus();
    } else {
      open(PANELS[index]!.id);
    }
  };

  return (
    <aside className="sidebar">
      <div className="brand">
        <StrataMark />
        <div className="brand-text">
          <span className="brand-name">Strata</span>
          <span className="brand-tagline">Vulkan configurator</span>
        </div>
      </div>
      <nav className="sidebar-nav" aria-label="Panels">
        {GROUPS.map(({ group, title }) => {
          const headingId = `nav-group-${group}`;
          return (
            <div className={`nav-group nav-group-${group}`} key={group}>
              {title && (
                <h2 className="nav-group-title" id={headingId}>
                  {title}
                </h2>
              )}
              <ul className="nav-list" {...(title ? { 'aria-labelledby': headingId } : { 'aria-label': 'Strata' })}>
                {PANELS.filter((p) => p.group === group).map((panel) => {
                  const index = panelIndex(panel.id);
                  const current = panel.id === active;
                  const digit = shortcutDigit(panel.id);
                  return (
                    <li key={panel.id}>
                      <button
                        type="button"
                        ref={(el) => {
                          items.current[index] = el;
                        }}
                        className="nav-item"
                        tabIndex={index === focusIndex ? 0 : -1}
                        aria-current={current ? 'page' : undefined}
                        aria-keyshortcuts={digit === null ? undefined : `Alt+${digit}`}
                        data-panel={panel.id}
                        onClick={() => open(panel.id)}
                        onFocus={() => setFocusIndex(index)}
                        onKeyDown={(e) => onKeyDown(e, index)}
                      >
                        <PanelIcon panel={panel.id} />
                        <span className="nav-label">{panel.label}</span>
                        {panel.id === 'problems' && <ProblemsNavBadge />}
                        {panel.id === 'layers' && <DraftNavBadge />}
                        {digit !== null && (
                          <kbd className="nav-shortcut" aria-hidden="true">
                            Alt+{digit}
                          </kbd>
                        )}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </nav>
      <ThemeSwitcher />
    </aside>
  );
}
