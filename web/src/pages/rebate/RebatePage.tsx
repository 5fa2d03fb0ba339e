import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';

/** Rebate rewards from the team. */
export function RebatePage() {
  const { t } = useTranslation();
  return (
    <main className="page">
      <PageHeader title={t('title.rebate')} />
      <section className="card">
        <p className="card__text">{t('rebate.intro')}</p>
      </section>
      <ErrorBlock status="empty" title={t('common.empty')} description="" />
    </main>
  );
}
