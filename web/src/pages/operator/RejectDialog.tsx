import Dialog from 'antd-mobile/es/components/dialog';
import TextArea from 'antd-mobile/es/components/text-area';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

const REASON_MAX = 200;

/** The dialog's words (translation keys): a withdrawal review's unless told; `confirm` takes {{summary}}. */
export type RejectCopy = { title: string; confirm: string; reason: string };
const REVIEW_COPY: RejectCopy = {
  title: 'operator.reviews.rejectTitle',
  confirm: 'operator.reviews.confirmReject',
  reason: 'operator.reviews.reason',
};

/**
 * Rejecting asks why (the holder sees the reason on the record) and is itself the
 * confirmation: it names the request, and nothing is sent until Reject is pressed.
 */
export function RejectDialog({
  visible,
  summary,
  onReject,
  onClose,
  copy = REVIEW_COPY,
}: {
  visible: boolean;
  summary: string;
  copy?: RejectCopy;
  /** Resolves true once the request is rejected; the dialog then closes. */
  onReject: (reason: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reject = async () => {
    const text = reason.trim();
    if (!text) {
      setError(t('operator.reviews.reasonRequired'));
      return;
    }
    if (await onReject(text)) onClose();
  };

  return (
    <Dialog
      visible={visible}
      aria-label={t(copy.title)}
      title={t(copy.title)}
      getContainer={() => document.body}
      afterClose={() => {
        setReason('');
        setError(null);
      }}
      content={
        <div className="op-reject">
          <p className="op-reject__summary">{t(copy.confirm, { summary })}</p>
          <label className="field__label" htmlFor={id}>
            {t(copy.reason)}
          </label>
          <TextArea
            id={id}
            className="op-reject__reason"
            placeholder={t('operator.reviews.reasonPlaceholder')}
            value={reason}
            maxLength={REASON_MAX}
            rows={3}
            showCount
            onChange={(value) => {
              setReason(value);
              setError(null);
            }}
          />
          {error && (
            <p className="field__error" role="alert">
              {error}
            </p>
          )}
        </div>
      }
      actions={[
        [
          { key: 'cancel', text: t('common.cancel'), onClick: onClose },
          { key: 'reject', text: t('operator.reviews.reject'), danger: true, bold: true, onClick: reject },
        ],
      ]}
    />
  );
}
