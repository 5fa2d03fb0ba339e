import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';

/** A card that says what could not be loaded, with Retry. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="card card--empty">
      <p>{message}</p>
      <Button size="small" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </section>
  );
}
