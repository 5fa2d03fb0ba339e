import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isTabRoot } from './TabBar.tsx';
import { SavedFigures } from './SavedFigures.tsx';

/**
 * Whether the app itself has a screen before this one to go back to: the router numbers its
 * history entries (idx in history.state), from 0 at the entry the app opened on. A link opened
 * from elsewhere, or a fresh start, has none.
 */
const hasScreenBefore = (): boolean => {
  const state: unknown = window.history.state;
  const idx = state && typeof state === 'object' && 'idx' in state ? state.idx : 0;
  return typeof idx === 'number' && idx > 0;
};

/**
 * A screen's title bar: Back to the screen before (home when there is none in the app), and
 * what the screen puts on its right (the bell); offline, the time its figures are from under it.
 * The four tab screens have no Back, as on a phone's tab roots: the tab bar moves between them.
 */
export function PageHeader({ title, right }: { title: string; right?: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const back = () => (hasScreenBefore() ? navigate(-1) : navigate('/home'));
  return (
    <>
      <div className="page-header">
        <div className="page-header__side">
          {!isTabRoot(pathname) && (
            <button type="button" className="page-header__back" aria-label={t('common.back')} onClick={back}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d="M15.4 4.6 8 12l7.4 7.4-1.4 1.4L5.2 12l8.8-8.8z" />
              </svg>
            </button>
          )}
        </div>
        <h1 className="page-header__title">{title}</h1>
        <div className="page-header__side page-header__side--end">{right}</div>
      </div>
      <SavedFigures />
    </>
  );
}
