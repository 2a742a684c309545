import type { ReactNode } from 'react';

/** A titled section of a panel; the title is an h2 under the panel's h1. */
export function Card({ id, title, aside, className, children }: { id: string; title: string; aside?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`} aria-labelledby={`${id}-title`}>
      <header className="card-header">
        <h2 className="card-title" id={`${id}-title`}>
          {title}
        </h2>
        {aside}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}

export function Badge({ tone, children, title }: { tone: 'ok' | 'error' | 'warning' | 'neutral' | 'accent'; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
