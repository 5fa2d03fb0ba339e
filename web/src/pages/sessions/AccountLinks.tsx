import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import '../statement/statement.css';

/** My: the way to the statement and to the signed-in devices. */
export function AccountLinks() {
  const { t } = useTranslation();
  return (
    <nav className="card account-links" aria-label={t('sessions.accountLinks')}>
      <Link className="text-link" to="/statement">
        {t('statement.title')} <span aria-hidden="true">→</span>
      </Link>
      <Link className="text-link" to="/sessions">
        {t('sessions.title')} <span aria-hidden="true">→</span>
      </Link>
    </nav>
  );
}
