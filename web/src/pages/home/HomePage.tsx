import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES } from '../../../../contract/languages.ts';
import { withQueries } from '../../api/withQueries.tsx';
import { LightButton } from '../../components/LightButton.tsx';
import { useLanguage } from '../../i18n/index.ts';
import { useSession } from '../../session/useSession.ts';
import { useStartup } from '../../session/useStartup.ts';
import { afterFirstPaint } from '../../lib/afterFirstPaint.ts';
import { DashboardView } from './DashboardView.tsx';

/**
 * The parts that read the server, asked for (their chunk, the query cache) just after the first
 * paint, which shows their placeholders; one chunk, so one render reveals them all. None shows
 * antd-mobile's texts, so none waits for them.
 */
const parts = () => import('./signedInParts.ts');
const light = { antdTexts: false, after: afterFirstPaint };
const Dashboard = withQueries(async () => (await parts()).Dashboard, light);
const ProofLine = withQueries(async () => (await parts()).ProofLine, light);
const OperatorEntry = withQueries(async () => (await parts()).OperatorEntry, light);
const HomeBell = withQueries(async () => (await parts()).Bell, light);


/** The language panel (and the Popup it is built on) loads when first opened. */
const LanguagePanel = lazy(async () => ({ default: (await import('../../components/LanguagePanel.tsx')).LanguagePanel }));

export function HomePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const [languageOpen, setLanguageOpen] = useState(false);
  // Once opened it stays mounted, so its closing animation can run.
  const [panelWanted, setPanelWanted] = useState(false);
  const { signedIn, startAuthorisation } = useSession();
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
        <span className="topbar__end">
          {phase === 'ready' && signedIn && (
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
      {phase === 'ended' ? (
        <section className="card session-ended" role="alert" data-testid="session-ended">
          <h2 className="card__title">{t('home.sessionEndedTitle')}</h2>
          <p className="card__text">{t('home.sessionEnded')}</p>
        </section>
      ) : phase === 'ready' && signedIn ? (
        <Suspense fallback={<DashboardView />}>
          <Dashboard />
        </Suspense>
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
        {/* Last, as is the proof line: they appear once their answers arrive and move nothing. */}
        {signedIn && phase === 'ready' && (
          <Suspense fallback={null}>
            <OperatorEntry />
          </Suspense>
        )}
      </div>
      <Suspense fallback={null}>
        <ProofLine />
      </Suspense>
      {panelWanted && (
        <Suspense fallback={null}>
          <LanguagePanel open={languageOpen} onClose={() => setLanguageOpen(false)} />
        </Suspense>
      )}
    </main>
  );
}
