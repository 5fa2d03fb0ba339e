import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type NoticeFormats, noticeTarget, noticeWording } from '../../../../contract/noticeWording.ts';
import type { Notice } from '../../../../contract/notifications.ts';
import { useMarkRead, useNotices } from '../../api/notifications.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Grouping, PagedList } from '../../components/PagedList.tsx';
import { formatAmount, formatDate, formatDay, formatTime } from '../../lib/format.ts';
import { dayHeading, localDay } from '../../lib/noticeDays.ts';
import { serverNow } from '../../lib/serverClock.ts';
import { translator } from '../../lib/translate.ts';
import { formatParamValue } from '../operator/params.ts';
import './notifications.css';

/** Figures, new terms and days in the reader's language (a rate as a percentage). */
const FORMATS: NoticeFormats = { amount: formatAmount, paramValue: formatParamValue, day: formatDay };

/** The notification centre: newest first, page by page; opening one marks it read and goes there. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notices = useNotices();
  // Each page of the list carries the unread count: no second request for it here.
  const unread = notices.data?.pages[0]?.unread ?? 0;
  const markRead = useMarkRead();

  // Under a heading per day, on the phone's calendar: today and yesterday by name.
  const byDay: Grouping<Notice> = {
    groupOf: (notice) => localDay(Date.parse(notice.createdAt)),
    heading: (day) => {
      const named = dayHeading(day, serverNow());
      return <h3 className="notices__day">{named ? t(`notifications.${named}`) : formatDate(new Date(`${day}T12:00:00`))}</h3>;
    },
  };

  const open = (notice: Notice) => {
    if (!notice.read) void markRead.send({ id: notice.id });
    navigate(noticeTarget(notice));
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
          grouping={byDay}
          render={(notice) => {
            const { title, text, note } = noticeWording(translator(t), notice, FORMATS);
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
                    {formatTime(notice.createdAt)}
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
