import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import Toast from 'antd-mobile/es/components/toast';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import type { FundingRecord } from '../../../../contract/wallet.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useFundingReview } from '../../api/operator.ts';
import { confirmAction } from '../../lib/confirm.ts';
import { reasonText, STATUS_COLORS } from '../wallet/moves.ts';
import { type RejectCopy, RejectDialog } from './RejectDialog.tsx';

const REJECT_COPY: RejectCopy = {
  title: 'operator.fundings.rejectTitle',
  confirm: 'operator.fundings.confirmReject',
  reason: 'operator.fundings.reason',
};

/** The exchange's refusals come as keys (`exchange.…`); a rejecting operator's reason is their own text. */

/**
 * One funding: which account, how much, who asked, its status (and why it failed); while under
 * review, Approve or Reject. The operator who asked cannot review their own (the server refuses
 * it too, with 128): another operator must.
 */
export function FundingItem({ item, own = false }: { item: FundingRecord; own?: boolean }) {
  const { t } = useTranslation();
  const { send, sending } = useFundingReview(item.id);
  const [rejecting, setRejecting] = useState(false);
  const busy = useRef(false);
  const account = t(`operator.account.${item.account}`);
  const amount = formatAmount(item.amount);
  const words = { account, amount, asset: item.asset, uid: item.requestedBy };
  const summary = t('operator.fundings.summary', words);
  const open = item.status === 'under_review';

  const review = async (approve: boolean, reason?: string): Promise<boolean> => {
    const record = await send(approve ? { approve } : { approve, reason: reason ?? '' });
    if (!record) return false;
    if (approve && record.status === 'failure') {
      const why = record.reason ? reasonText(t, record.reason) : t('wallet.status.failure');
      Toast.show({ content: t('operator.fundings.failed', { reason: why }), icon: 'fail', duration: TOAST_MS });
    } else if (approve && record.status !== 'success') {
      Toast.show({ content: t('operator.fundings.pending'), duration: TOAST_MS });
    } else Toast.show({ content: t('common.operationSuccess'), icon: 'success', duration: TOAST_MS });
    return true;
  };

  const approve = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      if (await confirmAction(t, t('operator.fundings.confirmApprove', words))) await review(true);
    } finally {
      busy.current = false;
    }
  };

  return (
    <li className={open && own ? 'op-review op-review--own' : 'op-review'} aria-label={summary}>
      <div className="record__row">
        <span className="record__type">{account}</span>
        <span className="record__amount">
          {amount} <span className="figure__unit">{item.asset}</span>
        </span>
      </div>
      <div className="record__row">
        <span className="op-review__uid">{t('operator.fundings.askedBy', { uid: item.requestedBy })}</span>
        <time className="record__time" dateTime={item.createdAt}>
          {formatDateTime(item.createdAt)}
        </time>
      </div>
      <div className="record__row">
        <span className="op-review__uid">
          {item.reviewedBy ? t('operator.fundings.reviewedBy', { uid: item.reviewedBy }) : null}
        </span>
        <Tag className="record__status" color={STATUS_COLORS[item.status]} fill="outline">
          {t(`wallet.status.${item.status}`)}
        </Tag>
      </div>
      {item.status === 'failure' && item.reason && (
        <p className="record__reason">{t('wallet.reason', { reason: reasonText(t, item.reason) })}</p>
      )}
      {open && own && <p className="op-review__own">{t('operator.fundings.own')}</p>}
      {open && (
        <div className="op-review__actions">
          <Button fill="outline" color="danger" disabled={sending || own} onClick={() => setRejecting(true)}>
            {t('operator.fundings.reject')}
          </Button>
          <Button color="success" loading={sending} disabled={sending || own} onClick={() => void approve()}>
            {t('operator.fundings.approve')}
          </Button>
        </div>
      )}
      <RejectDialog
        visible={rejecting}
        summary={summary}
        copy={REJECT_COPY}
        onReject={(reason) => review(false, reason)}
        onClose={() => setRejecting(false)}
      />
    </li>
  );
}
