import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';

/** The 30-day financial record. */
export function ThirtyDaysPage() {
  const { t } = useTranslation();
  return (
    <main className="page">
      <PageHeader title={t('title.thirtydays')} />
      <section className="card">
        <p className="card__text">{t('product.fixed30.rule')}</p>
      </section>
      <ErrorBlock status="empty" title={t('common.empty')} description="" />
    </main>
  );
}
