import type { StrataApi } from '../../shared/ipc/api';
import { StrataRequestError, strataError } from '../../shared/errors/strata-error';

/**
 * window.strata, or an error saying why it is missing (the page was opened without a host, e.g.
 * straight from out/renderer). Read on each use rather than captured at import time.
 */
export function strataApi(): StrataApi {
  const api = (window as Partial<Window>).strata;
  if (!api) {
    throw new StrataRequestError(
      strataError('ui/no-bridge', 'This page is not connected to Strata', {
        fix: 'open Strata with `npm start`, or open the URL that `strata serve` printed',
      }),
    );
  }
  return api;
}

export function hasStrataApi(): boolean {
  return (window as Partial<Window>).strata !== undefined;
}
