/** Host notices waiting for the user; pure list operations used by the notice store. */
export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  id: number;
  level: NoticeLevel;
  message: string;
}

/** Enough to show a burst without the banner pushing the panel off screen. */
export const MAX_NOTICES = 3;

/**
 * Newest first. A repeat of a message already shown moves it to the top instead of stacking
 * copies (a host that restarts may say the same thing twice).
 */
export function addNotice(list: readonly Notice[], notice: Notice, max = MAX_NOTICES): Notice[] {
  const rest = list.filter((n) => !(n.message === notice.message && n.level === notice.level));
  return [notice, ...rest].slice(0, Math.max(max, 1));
}

export function removeNotice(list: readonly Notice[], id: number): Notice[] {
  return list.filter((n) => n.id !== id);
}
