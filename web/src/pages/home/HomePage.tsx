import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES } from '../../../../contract/languages.ts';
import { withQueries } from '../../api/withQueries.tsx';
import { LightButton } from '../../components/LightButton.tsx';
import { useLanguage } from '../../i18n/index.ts';
import { useSession } from '../../session/useSession.ts';
import { useStartup } from '../../session/useStartup.ts';
import { useAfterFirstPaint } from '../../lib/afterFirstPaint.ts';
import { DashboardView } from './DashboardView.tsx';

// None shows antd-mobile's texts, so none waits for them.
const light = { antdTexts: false };
const Dashboard = withQueries(async () => (await import('./Dashboard.tsx')).Dashboard, light);
const ProofLine = withQueries(async () => (await import('../proof/ProofLine.tsx')).ProofLine, light);
const OperatorEntry = withQueries(async () => (await import('../operator/OperatorEntry.tsx')).OperatorEntry, light);
const HomeBell = withQueries(async () => (await import('../../components/Bell.tsx')).Bell, light);


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
  // The first paint shows the placeholders; the figures' chunks and answers are asked for after it.
  const painted = useAfterFirstPaint();
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
        <span className="topbar__end">
          {painted && phase === 'ready' && signedIn && (
            <Suspense fallback={null}>
              <HomeBell />
            </Suspense>
          )}
          <button type="button" className="lang-button" onClick={() => {
              setPanelWanted(true);
              setLanguageOpen(true);
            }}>
            {languageName}
          </button>
        </span>
      </header>
      <h1 className="headline">{t('home.headline')}</h1>
      <p className="subline">{t('home.subline')}</p>
      {phase === 'ready' && signedIn ? (
        painted ? (
          <Suspense fallback={<DashboardView />}>
            <Dashboard />
          </Suspense>
        ) : (
          <DashboardView />
        )
      ) : (
        phase !== 'signed-out' && (
          <section className="card card--empty" aria-busy="true">
            <span className="dots" aria-hidden="true" /> {t('home.signingIn')}
          </section>
        )
      )}
      <div className="actions">
        <LightButton color="primary" onClick={enter}>
          {signedIn ? t('home.enter') : t('home.signIn')}
        </LightButton>
        {signedIn && (
          <div className="actions__pair">
            <LightButton fill="outline" onClick={() => navigate('/my')}>
              {t('my.entry')}
            </LightButton>
            <LightButton fill="outline" onClick={() => navigate('/wallet')}>
              {t('wallet.entry')}
            </LightButton>
          </div>
        )}
        {signedIn && (
          <LightButton fill="outline" onClick={() => void logout()}>
            {t('common.logout')}
          </LightButton>
        )}
        {/* Last, as is the proof line: they appear once their answers arrive and move nothing. */}
        {painted && signedIn && phase === 'ready' && (
          <Suspense fallback={null}>
            <OperatorEntry />
          </Suspense>
        )}
      </div>
      {painted && (
        <Suspense fallback={null}>
          <ProofLine />
        </Suspense>
      )}
      {panelWanted && (
        <Suspense fallback={null}>
          <LanguagePanel open={languageOpen} onClose={() => setLanguageOpen(false)} />
        </Suspense>
      )}
    </main>
  );
}
