import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/** The four main screens, one tab each: path, label key, and the icon's SVG path. */
const TABS = [
  { path: '/home', label: 'tabs.home', icon: 'M12 3 2 12h3v8h5v-5h4v5h5v-8h3z' },
  { path: '/center', label: 'tabs.earn', icon: 'M3 17.6 9 11.6l4 4 6.6-6.6V13h2V5.6h-7.4v2h3.6L13 12.8l-4-4-7.4 7.4z' },
  {
    path: '/wallet',
    label: 'tabs.wallet',
    icon: 'M21 7H5a1 1 0 0 1 0-2h14V3H5a3 3 0 0 0-3 3v12a3 3 0 0 0 3 3h16V7Zm-4 8.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Z',
  },
  { path: '/my', label: 'tabs.my', icon: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0 2c-5 0-9 2.5-9 5.5V22h18v-2.5c0-3-4-5.5-9-5.5Z' },
] as const;

/** The screens the tab bar is on; they are roots, with no Back in their header. */
export const isTabRoot = (pathname: string): boolean => TABS.some((tab) => tab.path === pathname);

/**
 * The bar at the bottom of the four main screens (Home, Earn, Wallet, My), the current one marked
 * (aria-current="page", by NavLink). Signed out, Earn, Wallet and My lead to sign-in, as their
 * routes do.
 */
export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('tabs.label')}>
      {TABS.map((tab) => (
        <NavLink key={tab.path} to={tab.path} className="tab-bar__tab">
          <svg className="tab-bar__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={tab.icon} />
          </svg>
          <span className="tab-bar__label">{t(tab.label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
