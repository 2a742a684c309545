import type { ReactNode } from 'react';
import type { SeverityName } from '../problems/diagnostic-severity';
import { IconSvg, type IconSvgProps } from './IconSvg';

/** Icons of the Layers, Problems and Shaders panels; decorative (the text beside each says the same). */
const Svg = (props: IconSvgProps) => <IconSvg strokeWidth={1.9} {...props} />;

const SEVERITY_PATHS: Readonly<Record<SeverityName, ReactNode>> = {
  error: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m9 9 6 6M15 9l-6 6" />
    </>
  ),
  warning: (
    <>
      <path d="M10.3 4.2 2.8 17.5a2 2 0 0 0 1.7 3h15a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0Z" />
      <path d="M12 9.5v4M12 17h.01" />
    </>
  ),
  information: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5.5M12 7.75h.01" />
    </>
  ),
  hint: (
    <>
      <path d="M9 18h6M10 21h4" />
      <path d="M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3Z" />
    </>
  ),
};

export function SeverityIcon({ severity, size }: { severity: SeverityName; size?: number }) {
  return (
    <Svg size={size ?? 16} className={`severity-icon severity-${severity}`}>
      {SEVERITY_PATHS[severity]}
    </Svg>
  );
}

export function SearchIcon() {
  return (
    <Svg size={15}>
      <circle cx="11" cy="11" r="6.5" />
      <path d="m20 20-4.2-4.2" />
    </Svg>
  );
}

export function ChevronIcon() {
  return (
    <Svg size={14} className="chevron">
      <path d="m9 6 6 6-6 6" />
    </Svg>
  );
}

export function FileIcon() {
  return (
    <Svg size={15}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8Z" />
      <path d="M14 3v5h5" />
    </Svg>
  );
}

export function CheckCircleIcon({ size }: { size?: number }) {
  return (
    <Svg size={size ?? 16}>
      <circle cx="12" cy="12" r="9" />
      <path d="m8 12.5 2.8 2.8L16 10" />
    </Svg>
  );
}

export function ArrowRightIcon() {
  return (
    <Svg size={14}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </Svg>
  );
}
