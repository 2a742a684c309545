import type { ReactNode } from 'react';

export interface IconSvgProps {
  children: ReactNode;
  size?: number;
  /** Extra classes beside `icon`. */
  className?: string;
}

/**
 * The frame every line icon is drawn in: a 24×24 box stroked in the text colour, inline (no icon
 * font, nothing fetched); decorative, so hidden from screen readers.
 */
export function IconSvg({ children, size = 16, className, strokeWidth }: IconSvgProps & { strokeWidth: number }) {
  return (
    <svg
      className={`icon${className ? ` ${className}` : ''}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}
