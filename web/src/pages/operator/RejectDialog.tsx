import Dialog from 'antd-mobile/es/components/dialog';
import TextArea from 'antd-mobile/es/components/text-area';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The dialog's words (translation keys): `confirm` takes {{summary}} (without it the summary is
 * shown as it is), `required` {{min}}; the action is the button that sends, `danger` when it
 * refuses something.
 */
export type TextDialogCopy = {
  title: string;
  confirm?: string;
  label: string;
  placeholder: string;
  required: string;
  action: string;
  danger: boolean;
};
export type RejectCopy = { title: string; confirm: string; reason: string };

const REVIEW_COPY: RejectCopy = {
  title: 'operator.reviews.rejectTitle',
  confirm: 'operator.reviews.confirmReject',
  reason: 'operator.reviews.reason',
};

type Props = {
  visible: boolean;
  summary: string;
  /** Resolves true once the text is taken; the dialog then closes. */
  onSubmit: (text: string) => Promise<boolean>;
  onClose: () => void;
};

/**
 * An operator's action that asks for a text first (why, or what was found) and is itself the
 * confirmation: it names what it acts on, and nothing is sent until its button is pressed.
 */
export function TextDialog({ visible, summary, onSubmit, onClose, copy, min = 1, max }: Props & { copy: TextDialogCopy; min?: number; max: number }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const trimmed = text.trim();
    if (trimmed.length < min) {
      setError(t(copy.required, { min }));
      return;
    }
    if (await onSubmit(trimmed)) onClose();
  };

  return (
    <Dialog
      visible={visible}
      aria-label={t(copy.title)}
      title={t(copy.title)}
      getContainer={() => document.body}
      afterClose={() => {
        setText('');
        setError(null);
      }}
      content={
        <div className="op-reject">
          <p className="op-reject__summary">{copy.confirm ? t(copy.confirm, { summary }) : summary}</p>
          <label className="field__label" htmlFor={id}>
            {t(copy.label)}
          </label>
          <TextArea
            id={id}
            className="op-reject__reason"
            placeholder={t(copy.placeholder)}
            value={text}
            maxLength={max}
            rows={3}
            showCount
            onChange={(value) => {
              setText(value);
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
          { key: 'submit', text: t(copy.action), danger: copy.danger, bold: true, onClick: submit },
        ],
      ]}
    />
  );
}

/** Rejecting asks why (the holder, or the operator who asked, sees the reason). */
export function RejectDialog({ onReject, copy = REVIEW_COPY, ...props }: Omit<Props, 'onSubmit'> & { copy?: RejectCopy; onReject: (reason: string) => Promise<boolean> }) {
  const full: TextDialogCopy = {
    title: copy.title,
    confirm: copy.confirm,
    label: copy.reason,
    placeholder: 'operator.reviews.reasonPlaceholder',
    required: 'operator.reviews.reasonRequired',
    action: 'operator.reviews.reject',
    danger: true,
  };
  return <TextDialog {...props} copy={full} max={200} onSubmit={onReject} />;
}
