import Button from 'antd-mobile/es/components/button';
import Toast from 'antd-mobile/es/components/toast';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_MS } from '../api/client.ts';
import { copyText } from '../lib/clipboard.ts';

/** A button that puts `text` on the clipboard and says so ("Copy successful"). */
export function CopyButton({
  text,
  label,
  children,
  fill = 'outline',
}: {
  text: string;
  /** The accessible name, when the visible text alone would be ambiguous. */
  label?: string;
  children?: ReactNode;
  fill?: 'solid' | 'outline';
}) {
  const { t } = useTranslation();
  const copy = async () => {
    const copied = await copyText(text);
    Toast.show({
      content: t(copied ? 'common.copySuccess' : 'common.copyFailed'),
      icon: copied ? 'success' : 'fail',
      duration: TOAST_MS,
    });
  };
  return (
    <Button
      className="copy-button"
      size="small"
      color="primary"
      fill={fill}
      aria-label={label}
      disabled={!text}
      onClick={() => void copy()}
    >
      {children ?? t('common.copy')}
    </Button>
  );
}
