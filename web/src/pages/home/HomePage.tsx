import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES } from '../../../../contract/languages.ts';
import { withQueries } from '../../api/withQueries.tsx';
import { useLanguage } from '../../i18n/index.ts';
import { useSession } from '../../session/useSession.ts';
import { useStartup } from '../../session/useStartup.ts';

const Dashboard = withQueries(async () => (await import('./Dashboard.tsx')).Dashboard);
const ProofLine = withQueries(async () => (await import('../proof/ProofLine.tsx')).ProofLine);
const OperatorEntry = withQueries(async () => (await import('../operator/OperatorEntry.tsx')).OperatorEntry);

/** The placeholder of the signed-in figures, of their size, until their code and data arrive. */
const DashboardLoading = () => <Skeleton.Paragraph lineCount={5} animated className="card" />;

/** The language panel (and the Popup it is built on) loads when first opened. */
const LanguagePanel = lazy(async () => ({ default: (await import('../../components/LanguagePanel.tsx')).LanguagePanel }));

export function HomePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const [languageOpen, setLanguageOpen] = useState(false);
  // Once opened it stays mounted, so its closing animation can run.
  const [panelWanted, setPanelWanted] = useState(false);
  const { signedIn, startAuthorisation, logout } = useSession();
  const phase = useStartup();
  const languageName = LANGUAGES.find((l) => l.key === language)?.name ?? '';

  const enter = () => (signedIn ? navigate('/center') : void startAuthorisation());

  return (
    <main className="page page--home">
      <header className="topbar">
        <span className="brand">
          <span className="brand__mark" aria-hidden="true">
            A
          </span>
          {t('app.name')}
        </span>
        <button type="button" className="lang-button" onClick={() => {
            setPanelWanted(true);
            setLanguageOpen(true);
          }}>
          {languageName}
        </button>
      </header>
      <h1 className="headline">{t('home.headline')}</h1>
      <p className="subline">{t('home.subline')}</p>
      {phase === 'ready' && signedIn ? (
        <Suspense fallback={<DashboardLoading />}>
          <Dashboard />
        </Suspense>
      ) : (
        phase !== 'signed-out' && (
          <section className="card card--empty" aria-busy="true">
            <DotLoading /> {t('home.signingIn')}
          </section>
        )
      )}
      <Suspense fallback={null}>
        <ProofLine />
      </Suspense>
      <div className="actions">
        <Button block color="primary" size="large" onClick={enter}>
          {signedIn ? t('home.enter') : t('home.signIn')}
        </Button>
        {signedIn && (
          <div className="actions__pair">
            <Button block fill="outline" size="large" onClick={() => navigate('/my')}>
              {t('my.entry')}
            </Button>
            <Button block fill="outline" size="large" onClick={() => navigate('/wallet')}>
              {t('wallet.entry')}
            </Button>
          </div>
        )}
        {signedIn && phase === 'ready' && (
          <Suspense fallback={null}>
            <OperatorEntry />
          </Suspense>
        )}
        {signedIn && (
          <Button block fill="outline" size="large" onClick={() => void logout()}>
            {t('common.logout')}
          </Button>
        )}
      </div>
      {panelWanted && (
        <Suspense fallback={null}>
          <LanguagePanel open={languageOpen} onClose={() => setLanguageOpen(false)} />
        </Suspense>
      )}
    </main>
  );
}
