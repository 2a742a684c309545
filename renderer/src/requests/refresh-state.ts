import type { RequestState } from './request-state';

/**
 * The state a slot shows while it is asked again: an answer already on screen stays (the view
 * marks it busy) so a refresh does not make the page jump; an error or nothing yet becomes loading.
 */
export function whileRefreshing<T>(state: RequestState<T>): RequestState<T> {
  return state.status === 'ready' ? state : { status: 'loading' };
}

/** The value a slot shows, if any. */
export function valueOf<T>(state: RequestState<T>): T | null {
  return state.status === 'ready' ? state.value : null;
}
