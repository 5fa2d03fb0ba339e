import Button from 'antd-mobile/es/components/button';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatAmount } from '../../../../contract/format.ts';
import type { Notice } from '../../../../contract/notifications.ts';
import type { TransferType } from '../../../../contract/wallet.ts';
import { useMarkRead, useNotices } from '../../api/notifications.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PagedList } from '../../components/PagedList.tsx';
import { formatDateTime } from '../../lib/time.ts';
import { paramLabelKey } from '../operator/params.ts';
import { deviceLabel } from '../sessions/deviceLabel.ts';
import { typeLabelKey } from '../wallet/moves.ts';
import './notifications.css';

/** Where opening a notice goes: the screen of what it is about. */
const TARGETS: Record<Notice['kind'], string> = {
  income: '/income',
  transfer_approved: '/wallet',
  transfer_rejected: '/wallet',
  member_bound: '/my',
  order_redeemable: '/thirtydays',
  order_ended: '/wallet',
  lockup_released: '/rebate',
  terms_change: '/rates',
  new_device: '/sessions',
};

/** A notice's lines in the holder's language, from its kind and figures. */
function wording(t: TFunction, notice: Notice): { title: string; text: string; note?: string } {
  const p = notice.params;
  const title = t(`notifications.${notice.kind}.title`);
  switch (notice.kind) {
    case 'income':
      return { title, text: t('notifications.income.text', { total: formatAmount(p.total), day: p.day }) };
    case 'transfer_approved':
    case 'transfer_rejected': {
      const figures = { type: t(typeLabelKey(p.type as TransferType)), amount: formatAmount(p.amount), asset: p.asset };
      const text = t(`notifications.${notice.kind}.text`, figures);
      return p.reason ? { title, text, note: t('notifications.transfer_rejected.reason', { reason: p.reason }) } : { title, text };
    }
    case 'member_bound':
      return { title, text: t('notifications.member_bound.text', { member: p.member }) };
    case 'order_redeemable':
      return { title, text: t('notifications.order_redeemable.text', { order: p.order, principal: formatAmount(p.principal), income: formatAmount(p.income) }) };
    case 'order_ended':
      return { title, text: t('notifications.order_ended.text', { order: p.order, principal: formatAmount(p.principal) }) };
    case 'lockup_released':
      return { title, text: t('notifications.lockup_released.text', { amount: formatAmount(p.amount), day: p.day }) };
    case 'new_device': {
      const device = deviceLabel(t, { browser: p.browser || null, os: p.os || null });
      return { title, text: t('notifications.new_device.text', { device }) };
    }
    case 'terms_change': {
      const name = p.name ?? '';
      return { title, text: t('notifications.terms_change.text', { name: t(paramLabelKey(name) ?? name), value: p.value, day: p.day }) };
    }
  }
}

/** The notification centre: newest first, page by page; opening one marks it read and goes there. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notices = useNotices();
  // Each page of the list carries the unread count: no second request for it here.
  const unread = notices.data?.pages[0]?.unread ?? 0;
  const markRead = useMarkRead();

  const open = (notice: Notice) => {
    if (!notice.read) void markRead.send({ id: notice.id });
    navigate(TARGETS[notice.kind]);
  };

  return (
    <main className="page page--notifications">
      <PageHeader title={t('title.notifications')} />
      <section className="card records" aria-label={t('notifications.list')}>
        <header className="records__header">
          <h2 className="card__title">{t('notifications.list')}</h2>
          <Button size="small" disabled={unread === 0 || markRead.sending} onClick={() => void markRead.send({ all: true })}>
            {t('notifications.markAll')}
          </Button>
        </header>
        <PagedList
          query={notices}
          label={t('notifications.list')}
          failed={t('notifications.loadFailed')}
          className="notices"
          render={(notice) => {
            const { title, text, note } = wording(t, notice);
            return (
              <li key={notice.id} className={notice.read ? 'notice-item' : 'notice-item notice-item--unread'}>
                <button type="button" className="notice-item__open" onClick={() => open(notice)}>
                  <span className="notice-item__title">
                    {!notice.read && <span className="notice-item__dot" role="img" aria-label={t('notifications.unread')} />}
                    {title}
                  </span>
                  <span className="notice-item__text">{text}</span>
                  {note && <span className="notice-item__text">{note}</span>}
                  <time className="record__time" dateTime={notice.createdAt}>
                    {formatDateTime(notice.createdAt)}
                  </time>
                </button>
              </li>
            );
          }}
        />
      </section>
    </main>
  );
}
