import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUnread } from '../api/unread.ts';

/** The notification centre's entry: a bell with the unread count (signed-in screens). */
export function Bell() {
  const { t } = useTranslation();
  const count = useUnread().data?.unread ?? 0;
  return (
    <Link to="/notifications" className="bell" aria-label={count ? t('notifications.bellUnread', { count }) : t('notifications.bell')}>
      <svg className="bell__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
      </svg>
      {count > 0 && (
        <span className="bell__count" data-testid="bell-count">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
