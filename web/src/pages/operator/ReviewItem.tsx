import Button from 'antd-mobile/es/components/button';
import Toast from 'antd-mobile/es/components/toast';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import { TOAST_MS } from '../../api/client.ts';
import { type ReviewItem as Item, useReview } from '../../api/operator.ts';
import { typeLabelKey } from '../wallet/moves.ts';
import { confirmAction } from '../../lib/confirm.ts';
import { RejectDialog } from './RejectDialog.tsx';

/**
 * One withdrawal or transfer out under review: who, what, when; Approve or Reject. The
 * operator's own request is marked and its buttons are off: another operator must review it
 * (the server refuses it too, with 128).
 */
export function ReviewItem({ item, own = false }: { item: Item; own?: boolean }) {
  const { t } = useTranslation();
  const { send, sending } = useReview(item.id);
  const [rejecting, setRejecting] = useState(false);
  const busy = useRef(false);
  const type = t(typeLabelKey(item.type));
  const amount = formatAmount(item.amount);
  const summary = t('operator.reviews.summary', { type, amount, asset: item.asset, uid: item.userId });

  const review = async (approve: boolean, reason?: string): Promise<boolean> => {
    const record = await send(approve ? { approve } : { approve, reason: reason ?? '' });
    if (!record) return false;
    Toast.show({ content: t('common.operationSuccess'), icon: 'success', duration: TOAST_MS });
    return true;
  };

  const approve = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      if (await confirmAction(t, t('operator.reviews.confirmApprove', { summary }))) await review(true);
    } finally {
      busy.current = false;
    }
  };

  return (
    <li className={own ? 'op-review op-review--own' : 'op-review'} aria-label={summary}>
      <div className="record__row">
        <span className="record__type">{type}</span>
        <span className="record__amount">
          {amount} <span className="figure__unit">{item.asset}</span>
        </span>
      </div>
      <div className="record__row">
        <span className="op-review__uid">{t('operator.uid', { uid: item.userId })}</span>
        <time className="record__time" dateTime={item.createdAt}>
          {formatDateTime(item.createdAt)}
        </time>
      </div>
      {own && <p className="op-review__own">{t('operator.reviews.own')}</p>}
      <div className="op-review__actions">
        <Button fill="outline" color="danger" disabled={sending || own} onClick={() => setRejecting(true)}>
          {t('operator.reviews.reject')}
        </Button>
        <Button color="success" loading={sending} disabled={sending || own} onClick={() => void approve()}>
          {t('operator.reviews.approve')}
        </Button>
      </div>
      <RejectDialog
        visible={rejecting}
        summary={summary}
        onReject={(reason) => review(false, reason)}
        onClose={() => setRejecting(false)}
      />
    </li>
  );
}
