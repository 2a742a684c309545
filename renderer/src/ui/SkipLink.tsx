import type { MouseEvent } from 'react';

/** First Tab stop: jumps past the sidebar. Focus is moved by script so the URL keeps no #fragment. */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById('main')?.focus();
  };
  return (
    <a className="skip-link" href="#main" onClick={skip}>
      Skip to main content
    </a>
  );
}
