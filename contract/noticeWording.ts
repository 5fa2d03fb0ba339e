import { formatAmount } from './format.ts';
import { deviceLabel, paramLabelKey, type Translate, typeLabelKey } from './labels.ts';
import type { NoticeKind } from './notifications.ts';
import type { TransferType } from './wallet.ts';

/**
 * A notice in words, from its kind and figures: the notification centre shows it, and the
 * server's push dispatcher sends it, both with the same locale files (web/src/i18n/locales), so
 * there is one text per notice and language.
 */

/** Where opening a notice goes: the app's route of what it is about. */
const NOTICE_TARGETS: Record<NoticeKind, string> = {
  income: '/income',
  transfer_approved: '/wallet',
  transfer_rejected: '/wallet',
  member_bound: '/my',
  order_redeemable: '/thirtydays',
  order_ended: '/wallet',
  lockup_released: '/rebate',
  terms_change: '/rates',
  new_device: '/sessions',
  order_renewed: '/thirtydays',
  money_in: '/wallet',
  subscribed: '/center',
  redeemed: '/wallet',
  claimed: '/wallet',
};

/**
 * Where opening this notice goes: its kind's route; a 30-day order's notice lands on the order
 * (the renewal's on the new one), a day's notice of unlocked network income alone on the claim.
 */
export function noticeTarget(notice: { kind: NoticeKind; params: Record<string, string> }): string {
  // A day that only unlocked network income leads to where it is claimed.
  if (notice.kind === 'income' && notice.params.unlocked && notice.params.total === '0') return NOTICE_TARGETS.lockup_released;
  const order = notice.kind === 'order_renewed' ? notice.params.renewal : notice.kind === 'order_redeemable' ? notice.params.order : undefined;
  return order ? `${NOTICE_TARGETS[notice.kind]}?order=${order}` : NOTICE_TARGETS[notice.kind];
}

export type NoticeWords = { title: string; text: string; note?: string };

/** How a notice's figures are written: an amount, a parameter's new value, a settlement day. */
export type NoticeFormats = {
  amount: (value: string | undefined) => string;
  paramValue: (name: string, value: string) => string;
  day: (day: string | undefined) => string;
};

/** The server's pushes: amounts as contract/format.ts writes them, values as stored. */
const PLAIN_FORMATS: NoticeFormats = { amount: formatAmount, paramValue: (_name, value) => value, day: (day) => day ?? '' };

/**
 * A notice's lines in the reader's language; the web app passes its own formats, which write
 * figures and rates the way the reader's language does.
 */
export function noticeWording(
  t: Translate,
  notice: { kind: NoticeKind; params: Record<string, string> },
  formats: NoticeFormats = PLAIN_FORMATS,
): NoticeWords {
  const p = notice.params;
  const formatAmount = formats.amount;
  const day = formats.day(p.day);
  const title = t(`notifications.${notice.kind}.title`);
  switch (notice.kind) {
    case 'income': {
      // The day's network income unlocked is told in the same notice: one income notice a day.
      const figures = { total: formatAmount(p.total), unlocked: formatAmount(p.unlocked), day };
      if (!p.unlocked) return { title, text: t('notifications.income.text', figures) };
      if (p.total === '0') return { title: t('notifications.lockup_released.title'), text: t('notifications.income.unlocked', figures) };
      return { title, text: t('notifications.income.textUnlocked', figures) };
    }
    case 'transfer_approved':
    case 'transfer_rejected': {
      const figures = { type: t(typeLabelKey(p.type as TransferType)), amount: formatAmount(p.amount), asset: p.asset ?? '' };
      const text = t(`notifications.${notice.kind}.text`, figures);
      return p.reason ? { title, text, note: t('notifications.transfer_rejected.reason', { reason: p.reason }) } : { title, text };
    }
    case 'member_bound':
      return { title, text: t('notifications.member_bound.text', { member: p.member ?? '' }) };
    case 'order_redeemable': {
      const text = t('notifications.order_redeemable.text', { order: p.order ?? '', principal: formatAmount(p.principal), income: formatAmount(p.income) });
      // Auto-renew refused: why (over the day's quota, or below the minimum).
      return p.reason ? { title, text, note: t(`notifications.order_redeemable.${p.reason}`, { limit: formatAmount(p.limit) }) } : { title, text };
    }
    case 'order_renewed':
      return {
        title,
        text: t('notifications.order_renewed.text', {
          order: p.order ?? '',
          renewal: p.renewal ?? '',
          principal: formatAmount(p.principal),
          income: formatAmount(p.income),
          day,
        }),
      };
    case 'order_ended':
      return { title, text: t('notifications.order_ended.text', { order: p.order ?? '', principal: formatAmount(p.principal) }) };
    case 'lockup_released':
      return { title, text: t('notifications.lockup_released.text', { amount: formatAmount(p.amount), day }) };
    case 'new_device': {
      const device = deviceLabel(t, { browser: p.browser || null, os: p.os || null });
      return { title, text: t('notifications.new_device.text', { device }) };
    }
    case 'money_in':
      return { title, text: t('notifications.money_in.text', { type: t(typeLabelKey(p.type as TransferType)), amount: formatAmount(p.amount), asset: p.asset ?? '' }) };
    case 'subscribed':
    case 'redeemed':
      return {
        title,
        text: t(`notifications.${notice.kind}.text`, { amount: formatAmount(p.amount), product: t(`product.${p.product}.name`), order: p.order ?? '' }),
      };
    case 'claimed':
      return { title, text: t('notifications.claimed.text', { amount: formatAmount(p.amount), what: t(`notifications.claimed.${p.what}`) }) };
    case 'terms_change': {
      const name = p.name ?? '';
      return { title, text: t('notifications.terms_change.text', { name: t(paramLabelKey(name) ?? name), value: formats.paramValue(name, p.value ?? ''), day }) };
    }
  }
}
