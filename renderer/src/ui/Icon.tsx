import type { ReactNode } from 'react';
import type { PanelId } from '../panels/panel-list';
import type { ThemeMode } from '../theme/theme-mode';
import { IconSvg, type IconSvgProps } from './IconSvg';

/** The sidebar's and the window chrome's icons, a little lighter than the views' (ViewIcons). */
const Svg = (props: IconSvgProps) => <IconSvg strokeWidth={1.8} {...props} />;

const PANEL_PATHS: Readonly<Record<PanelId, ReactNode>> = {
  layers: (
    <>
      <path d="M12 2.5 21.5 7.25 12 12 2.5 7.25Z" />
      <path d="m2.5 12 9.5 4.75L21.5 12" />
      <path d="m2.5 16.75 9.5 4.75 9.5-4.75" />
    </>
  ),
  chain: (
    <>
      <rect x="7" y="2.5" width="10" height="5" rx="1.5" />
      <rect x="7" y="9.5" width="10" height="5" rx="1.5" />
      <rect x="7" y="16.5" width="10" height="5" rx="1.5" />
      <path d="M12 7.5v2M12 14.5v2" />
    </>
  ),
  drivers: (
    <>
      <rect x="6" y="6" width="12" height="12" rx="1.5" />
      <rect x="9.5" y="9.5" width="5" height="5" rx="0.5" />
      <path d="M9.5 2.5V6M14.5 2.5V6M9.5 18v3.5M14.5 18v3.5M2.5 9.5H6M2.5 14.5H6M18 9.5h3.5M18 14.5h3.5" />
    </>
  ),
  profiles: (
    <>
      <path d="M3 6h11M18 6h3M3 12h3M10 12h11M3 18h9M16 18h5" />
      <circle cx="16" cy="6" r="2" />
      <circle cx="8" cy="12" r="2" />
      <circle cx="14" cy="18" r="2" />
    </>
  ),
  applications: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 9h18M6.5 6.5h.01M9 6.5h.01" />
    </>
  ),
  settings: (
    <>
      <path d="M4 21v-7M4 10V3M12 21v-9M12 8V3M20 21v-5M20 12V3M1.5 14h5M9.5 8h5M17.5 16h5" />
    </>
  ),
  sessions: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="m7 10 3 2.5L7 15M13 15h4" />
    </>
  ),
  shaders: (
    <>
      <path d="M12 2.5 20.5 7.25v9.5L12 21.5l-8.5-4.75v-9.5Z" />
      <path d="M3.5 7.25 12 12l8.5-4.75M12 12v9.5" />
    </>
  ),
  problems: (
    <>
      <path d="M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
      <path d="M12 9.5v4.5M12 17.5h.01" />
    </>
  ),
  diagnostics: (
    <>
      <path d="M2.5 12h4l2.5-6.5 4.5 13 2.5-6.5h5.5" />
    </>
  ),
  about: (
    <>
      <circle cx="12" cy="12" r="9.5" />
      <path d="M12 11v6M12 7.5h.01" />
    </>
  ),
};

export function PanelIcon({ panel, size }: { panel: PanelId; size?: number }) {
  return <Svg size={size ?? 16}>{PANEL_PATHS[panel]}</Svg>;
}

const THEME_PATHS: Readonly<Record<ThemeMode, ReactNode>> = {
  system: (
    <>
      <rect x="2.5" y="4" width="19" height="13" rx="2" />
      <path d="M8 21h8M12 17v4" />
    </>
  ),
  light: (
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2.5v2M12 19.5v2M4.6 4.6 6 6M18 18l1.4 1.4M2.5 12h2M19.5 12h2M4.6 19.4 6 18M18 6l1.4-1.4" />
    </>
  ),
  dark: <path d="M20.5 14.5A8.5 8.5 0 0 1 9.5 3.5a8.5 8.5 0 1 0 11 11Z" />,
};

export function ThemeIcon({ mode }: { mode: ThemeMode }) {
  return <Svg size={14}>{THEME_PATHS[mode]}</Svg>;
}

export function CloseIcon() {
  return (
    <Svg size={14}>
      <path d="M6 6l12 12M18 6 6 18" />
    </Svg>
  );
}

export function RetryIcon() {
  return (
    <Svg size={14}>
      <path d="M20.5 12a8.5 8.5 0 1 1-2.5-6" />
      <path d="M20.5 3.5V9H15" />
    </Svg>
  );
}

/** Strata's mark: three strata, the way layers stack on a Vulkan instance. */
export function StrataMark() {
  return (
    <svg className="brand-mark" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <rect width="28" height="28" rx="7" className="brand-mark-tile" />
      <rect x="6" y="7" width="16" height="3.5" rx="1.75" className="brand-mark-layer" opacity="0.55" />
      <rect x="6" y="12.25" width="16" height="3.5" rx="1.75" className="brand-mark-layer" opacity="0.8" />
      <rect x="6" y="17.5" width="16" height="3.5" rx="1.75" className="brand-mark-layer" />
    </svg>
  );
}
