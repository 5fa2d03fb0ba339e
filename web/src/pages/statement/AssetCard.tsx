import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../lib/format.ts';
import type { AssetStatement } from '../../../../contract/statement.ts';
import { Figure } from '../../components/Figure.tsx';

/**
 * One asset's month: opening, money in (from outside), earnings, money out, closing, which add
 * up; then each account's. Moves between the holder's own accounts are in neither.
 */
export function AssetCard({ statement }: { statement: AssetStatement }) {
  const { t } = useTranslation();
  const unit = statement.asset;
  return (
    <section className="card statement-asset" aria-label={statement.asset}>
      <h2 className="card__title">{statement.asset}</h2>
      <dl className="figures">
        <Figure label={t('statement.opening')} value={formatAmount(statement.opening)} unit={unit} />
        <Figure label={t('statement.credits')} value={`+${formatAmount(statement.moneyIn)}`} unit={unit} tone="up" />
        <Figure label={t('statement.earnings')} value={`+${formatAmount(statement.earnings)}`} unit={unit} tone="up" />
        <Figure label={t('statement.debits')} value={formatAmount(statement.moneyOut)} unit={unit} tone="down" />
        <Figure label={t('statement.closing')} value={formatAmount(statement.closing)} unit={unit} />
      </dl>
      <h3 className="card__subtitle">{t('statement.byAccount')}</h3>
      <ul className="statement-accounts">
        {statement.accounts.map((account) => (
          <li key={account.account} className="statement-accounts__item">
            <span>{t(`statement.account.${account.account}`, { defaultValue: account.account })}</span>
            <span className="statement-accounts__figures">
              {formatAmount(account.opening)} → {formatAmount(account.closing)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
