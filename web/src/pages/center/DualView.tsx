import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { aicInUsdt, type PositionsData } from '../../../../contract/dual.ts';
import { formatAmount, formatFigure } from '../../lib/format.ts';
import { formatUnits } from '../../../../contract/money.ts';
import { usePositions } from '../../api/activity.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { unitsOf } from '../../lib/amount.ts';
import { useRememberedChoice } from '../../lib/preference.ts';
import './dual.css';

const VIEWS = ['aic', 'dual'] as const;
type View = (typeof VIEWS)[number];

/** The sum of decimal strings, exactly. */
const sum = (values: string[]) => formatUnits(values.reduce((total, value) => total + (unitsOf(value) ?? 0n), 0n));

/**
 * The rows of the view: each product's principal, the income on them (matured orders not yet
 * redeemed among them), and what the Claim buttons move to the wallet now: 360-day rewards and
 * unlocked network income. A matured order is redeemed, not claimed.
 */
function rowsOf(data: PositionsData, t: (key: string) => string) {
  const { rewards, network } = data.claimable;
  return [
    ...data.products.map((p) => ({ key: p.product, label: t(`product.${p.product}.name`), aic: p.principal })),
    { key: 'income', label: t('dual.income'), aic: sum(data.products.map((p) => p.income)) },
    { key: 'claimable', label: t('dual.claimable'), aic: sum([rewards, network]) },
  ];
}

/**
 * The optimized / dual-currency view of the centre: the holder's positions per product, the
 * income on them and what is claimable, in AIC alone or in AIC and USDT side by side at the price
 * in force (computed exactly: AIC × price, truncated). The choice is remembered on the device.
 */
export function DualView() {
  const { t } = useTranslation();
  const [view, setView] = useRememberedChoice<View>('currencyView', VIEWS, 'aic');
  const { data, isPending, isError, refetch } = usePositions();
  const title = t('dual.title');
  const dual = view === 'dual';

  let body: ReactNode;
  if (isPending) body = <Skeleton.Paragraph lineCount={5} animated />;
  else if (isError || !data) {
    body = (
      <div className="card--empty">
        <p>{t('dual.loadFailed')}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else {
    body = (
      <>
        <table className="dual__table">
          <thead>
            <tr>
              <th scope="col">{t('dual.item')}</th>
              <th scope="col">AIC</th>
              {dual && <th scope="col">USDT</th>}
            </tr>
          </thead>
          <tbody>
            {rowsOf(data, t).map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td>{formatAmount(row.aic)}</td>
                {dual && <td>{formatAmount(aicInUsdt(row.aic, data.price))}</td>}
              </tr>
            ))}
          </tbody>
        </table>
        {dual && (
          <>
            <p className="field__note" data-testid="dual-price">
              {t('dual.price', { price: formatFigure(data.price) })}
            </p>
            <p className="field__note">{t('dual.pool2')}</p>
          </>
        )}
      </>
    );
  }

  return (
    <section className="card dual" aria-label={title}>
      <div className="dual__head">
        <h2 className="card__title">{title}</h2>
        <ChoiceGroup<View>
          label={t('dual.switch')}
          value={view}
          onChange={setView}
          options={[
            { value: 'aic', label: t('dual.aicOnly') },
            { value: 'dual', label: t('dual.both') },
          ]}
        />
      </div>
      {body}
    </section>
  );
}
