import NavBar from 'antd-mobile/es/components/nav-bar';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** A screen's title bar with a way back home, and what the screen puts on its right (the bell). */
export function PageHeader({ title, right }: { title: string; right?: ReactNode }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  // The back area is a button showing only an arrow (antd-mobile hides its `back` text from
  // screen readers): its name comes from hidden text in `left`.
  return (
    <NavBar className="page-header" left={<span className="visually-hidden">{t('common.back')}</span>} onBack={() => navigate('/home')} right={right}>
      <h1 className="page-header__title">{title}</h1>
    </NavBar>
  );
}
