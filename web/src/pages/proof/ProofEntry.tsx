import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** My: the way to the holder's own proof of liabilities. */
export function ProofEntry() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-label={t('proof.title')}>
      <h2 className="card__title">{t('proof.title')}</h2>
      <p className="card__text">{t('proof.myText')}</p>
      <Link className="text-link" to="/proof">
        {t('proof.myLink')} →
      </Link>
    </section>
  );
}
