import Button from 'antd-mobile/es/components/button';
import Dialog from 'antd-mobile/es/components/dialog';
import Skeleton from 'antd-mobile/es/components/skeleton';
import Toast from 'antd-mobile/es/components/toast';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EMPTY, formatAmount, formatDay } from '../../lib/format.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useReceiveProfit, useZeroProfit } from '../../api/team.ts';
import { Figure } from '../../components/Figure.tsx';
import { OfflineReason } from '../../components/OfflineReason.tsx';
import { useOffline } from '../../lib/connectivity.ts';
import { unitsOf } from '../../lib/amount.ts';
import { UnlockBar } from './UnlockBar.tsx';

/**
 * Network income (team rebates): what is claimable now with its Claim, what is locked, the
 * next release, and the unlock tier. On My it links to the rebate details.
 */
export function NetworkIncomeCard({ details = false }: { details?: boolean }) {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useZeroProfit();
  const { send, sending } = useReceiveProfit();
  const offline = useOffline();
  const busy = useRef(false);
  const title = t('my.network.title');

  if (isPending) return <Skeleton.Paragraph lineCount={6} animated className="card" />;
  if (isError || !data) {
    return (
      <section className="card card--empty" aria-label={title}>
        <p>{t('my.network.loadFailed')}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </section>
    );
  }

  // Claim is disabled while nothing is claimable: nothing to claim is not a refusal to show.
  const claimable = unitsOf(data.claimable) ?? 0n;
  const claim = async () => {
    if (busy.current || claimable <= 0n) return;
    busy.current = true;
    try {
      const confirmed = await Dialog.confirm({
        'aria-label': t('wallet.confirmTitle'),
        title: t('wallet.confirmTitle'),
        content: t('my.network.confirm', { amount: formatAmount(data.claimable) }),
        confirmText: t('common.confirm'),
        cancelText: t('common.cancel'),
      });
      if (!confirmed) return;
      const answer = await send({});
      if (answer) {
        const content = t('my.network.received', { amount: formatAmount(answer.claimed) });
        Toast.show({ content, icon: 'success', duration: TOAST_MS });
      }
    } finally {
      busy.current = false;
    }
  };

  const next = data.nextUnlockDay
    ? t('my.network.nextUnlockValue', { amount: formatAmount(data.nextUnlockAmount), day: formatDay(data.nextUnlockDay) })
    : EMPTY;
  return (
    <section className="card network" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      <div className="rewards network__claim">
        <div className="rewards__body">
          <p className="card__label">{t('my.network.claimable')}</p>
          <p className="rewards__amount" data-testid="network-claimable">
            {formatAmount(data.claimable)} <span className="figure__unit">AIC</span>
          </p>
        </div>
        <Button
          color="primary"
          size="middle"
          loading={sending}
          disabled={sending || offline || claimable <= 0n}
          onClick={() => void claim()}
        >
          {t('my.network.claim')}
        </Button>
        <OfflineReason />
      </div>
      <dl className="figures network__figures">
        <Figure label={t('my.network.locked')} value={formatAmount(data.locked)} unit="AIC" />
        <Figure label={t('my.network.pending')} value={formatAmount(data.pendingUnlock)} unit="AIC" />
        <Figure label={t('my.network.nextUnlock')} value={next} />
      </dl>
      <UnlockBar data={data} />
      <p className="field__note">{t('my.network.hint')}</p>
      {details && (
        <Link className="text-link" to="/rebate">
          {t('my.network.details')} →
        </Link>
      )}
    </section>
  );
}
