import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** What anyone who is not an operator sees instead of the console (a12, "Access denied"). */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <section className="card op-denied" aria-label={t('a12')}>
      <svg className="op-denied__icon" viewBox="0 0 48 48" aria-hidden="true">
        <rect x="9" y="21" width="30" height="22" rx="5" />
        <path d="M16 21v-6a8 8 0 0 1 16 0v6" fill="none" strokeWidth="4" strokeLinecap="round" />
        <circle cx="24" cy="32" r="3" />
      </svg>
      <h2 className="op-denied__title">{t('a12')}</h2>
      <p className="card__text">{t('operator.deniedHint')}</p>
      <Link className="text-link" to="/home">
        {t('operator.backHome')}
      </Link>
    </section>
  );
}
