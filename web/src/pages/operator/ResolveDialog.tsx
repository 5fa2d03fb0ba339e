import Dialog from 'antd-mobile/es/components/dialog';
import TextArea from 'antd-mobile/es/components/text-area';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

const NOTE_MIN = 3;
const NOTE_MAX = 500;

/**
 * Resolving a difference asks what the operator found and did (kept in the audit log) and is
 * itself the confirmation: it names the difference, and nothing is sent until Resolve is pressed.
 */
export function ResolveDialog({
  visible,
  summary,
  onResolve,
  onClose,
}: {
  visible: boolean;
  summary: string;
  /** Resolves true once the difference is resolved; the dialog then closes. */
  onResolve: (note: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  const resolve = async () => {
    const text = note.trim();
    if (text.length < NOTE_MIN) {
      setError(t('operator.reconciliation.noteShort', { min: NOTE_MIN }));
      return;
    }
    if (await onResolve(text)) onClose();
  };

  return (
    <Dialog
      visible={visible}
      aria-label={t('operator.reconciliation.resolveTitle')}
      title={t('operator.reconciliation.resolveTitle')}
      getContainer={() => document.body}
      afterClose={() => {
        setNote('');
        setError(null);
      }}
      content={
        <div className="op-reject">
          <p className="op-reject__summary">{summary}</p>
          <label className="field__label" htmlFor={id}>
            {t('operator.reconciliation.note')}
          </label>
          <TextArea
            id={id}
            className="op-reject__reason"
            placeholder={t('operator.reconciliation.notePlaceholder')}
            value={note}
            maxLength={NOTE_MAX}
            rows={3}
            showCount
            onChange={(value) => {
              setNote(value);
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
          { key: 'resolve', text: t('operator.reconciliation.resolve'), bold: true, onClick: resolve },
        ],
      ]}
    />
  );
}
