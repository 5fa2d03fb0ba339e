import type { TransferType } from './wallet.ts';

/**
 * Message keys and labels shared by the web app and the server (the server words push
 * notifications with the same locale files, see contract/noticeWording.ts).
 */

/** A translation function: i18next's `t` in the web app, the locale files read by the server. */
export type Translate = (key: string, values?: Record<string, string>) => string;

/** Each parameter's label key under operator.params.names (its name has dots i18next would split). */
const PARAM_LABELS: Record<string, string> = {
  'price.aic_usd': 'price',
  'earn.current.daily_rate': 'currentRate',
  'earn.fixed30.daily_rate': 'fixed30Rate',
  'earn.daily_quota': 'dailyQuota',
  'earn.minimum': 'minimum',
  'earn.360.multiplier': 'multiplier',
  'earn.360.coefficient_base': 'coefficientBase',
  'earn.360.launch_day': 'launchDay',
  'earn.360.coefficient_max_days': 'coefficientMaxDays',
  'earn.360.pool_output_rate': 'poolOutputRate',
  'earn.360.max_daily_rate': 'poolMaxDailyRate',
  'team.rebate_rates': 'rebateRates',
  'team.level_thresholds': 'levelThresholds',
  'team.effective_minimum': 'effectiveMinimum',
  'team.unlock_tiers': 'unlockTiers',
  'team.lockup_days': 'lockupDays',
};

export const paramLabelKey = (name: string): string | null =>
  Object.hasOwn(PARAM_LABELS, name) ? `operator.params.names.${PARAM_LABELS[name]}` : null;

export const typeLabelKey = (type: TransferType) => `wallet.type.${type}` as const;

/** "Chrome on Android" in the reader's language; browser and system names stay as they are. */
export function deviceLabel(t: Translate, device: { browser: string | null; os: string | null }): string {
  if (device.browser && device.os) return t('sessions.deviceOn', { browser: device.browser, os: device.os });
  return device.browser ?? device.os ?? t('sessions.unknownDevice');
}
