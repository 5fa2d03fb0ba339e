import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAmount, formatDay } from '../../lib/format.ts';
import { usePublishedRoot } from '../../api/proof.ts';

const shortRoot = (hex: string) => `${hex.slice(0, 8)}…${hex.slice(-6)}`;

/** Home: the latest published proof of liabilities in one line, leading to the proof screen. */
export function ProofLine() {
  const { t } = useTranslation();
  const { data } = usePublishedRoot();
  const aic = data?.roots.find((r) => r.asset === 'AIC');
  if (!data?.day || !aic) return null;
  return (
    <p className="proof-line">
      <Link className="text-link" to="/proof" data-testid="proof-line">
        {t('proof.homeLine', { day: formatDay(data.day), total: formatAmount(aic.total), root: shortRoot(aic.root) })} →
      </Link>
    </p>
  );
}
