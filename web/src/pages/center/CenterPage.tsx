import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUserInfo } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';

const PRODUCTS = ['current', 'fixed30', 'reinvest360'] as const;

function UserStrip() {
  const { t } = useTranslation();
  const { data } = useUserInfo();
  return (
    <div className="user-strip">
      <p className="user-strip__name">{data ? `${data.name} · UID ${data.userId}` : t('common.loading')}</p>
      <Link className="user-strip__link" to="/wallet">
        {t('wallet.entry')}
      </Link>
    </div>
  );
}

/** The earn-coins centre: the three products, one tab each. */
export function CenterPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string>(PRODUCTS[0]);
  return (
    <main className="page">
      <PageHeader title={t('title.center')} />
      <UserStrip />
      <Tabs activeKey={tab} onChange={setTab}>
        {PRODUCTS.map((product) => (
          <Tabs.Tab key={product} title={t(`product.${product}.name`)}>
            <section className="card" aria-label={t(`product.${product}.name`)}>
              <h2 className="card__title">{t(`product.${product}.name`)}</h2>
              <p className="card__text">{t(`product.${product}.rule`)}</p>
            </section>
          </Tabs.Tab>
        ))}
      </Tabs>
    </main>
  );
}
