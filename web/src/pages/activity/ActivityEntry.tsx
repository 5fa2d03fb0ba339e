import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The way to the recruitment activity (home and My); light, so home can show it. */
export function ActivityEntry() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-label={t('activity.title')}>
      <h2 className="card__title">{t('activity.title')}</h2>
      <p className="card__text">{t('activity.entryText')}</p>
      <Link className="text-link" to="/activity">
        {t('activity.entryLink')} →
      </Link>
    </section>
  );
}
