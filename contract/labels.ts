import { paramOf } from './params.ts';
import type { TransferType } from './wallet.ts';

/**
 * Message keys and labels shared by the web app and the server (the server words push
 * notifications with the same locale files, see contract/noticeWording.ts).
 */

/** A translation function: i18next's `t` in the web app, the locale files read by the server. */
export type Translate = (key: string, values?: Record<string, string>) => string;

/** A parameter's label key under operator.params.names (its name has dots i18next would split). */
export const paramLabelKey = (name: string): string | null => {
  const label = paramOf(name)?.label;
  return label ? `operator.params.names.${label}` : null;
};

export const typeLabelKey = (type: TransferType) => `wallet.type.${type}` as const;

/** "Chrome on Android" in the reader's language; browser and system names stay as they are. */
export function deviceLabel(t: Translate, device: { browser: string | null; os: string | null }): string {
  if (device.browser && device.os) return t('sessions.deviceOn', { browser: device.browser, os: device.os });
  return device.browser ?? device.os ?? t('sessions.unknownDevice');
}
