import type { TFunction } from 'i18next';
import type { SessionItem } from '../../../../contract/sessions.ts';

/** "Chrome on Android" in the reader's language; browser and system names stay as they are. */
export function deviceLabel(t: TFunction, session: Pick<SessionItem, 'browser' | 'os'>): string {
  if (session.browser && session.os) return t('sessions.deviceOn', { browser: session.browser, os: session.os });
  return session.browser ?? session.os ?? t('sessions.unknownDevice');
}
