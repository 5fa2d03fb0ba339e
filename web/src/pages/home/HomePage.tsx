import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatAmount, formatFigure, signOf } from '../../../../contract/format.ts';
import { LANGUAGES } from '../../../../contract/languages.ts';
import { useDashboard } from '../../api/queries.ts';
import { Figure } from '../../components/Figure.tsx';
import { useLanguage } from '../../i18n/index.ts';
import { ActivityEntry } from '../activity/ActivityEntry.tsx';
import { OperatorEntry } from '../operator/OperatorEntry.tsx';
import { ProofLine } from '../proof/ProofLine.tsx';
import { PlatformFigures } from './PlatformFigures.tsx';
import { useSession } from '../../session/useSession.ts';
import { useStartup } from '../../session/useStartup.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** The language panel (and the Popup it is built on) loads when first opened. */
const LanguagePanel = lazy(async () => ({ default: (await import('../../components/LanguagePanel.tsx')).LanguagePanel }));

function Dashboard() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useDashboard();
  if (isPending) return <Skeleton.Paragraph lineCount={5} animated className="card" />;
  if (isError || !data) {
    return (
      <LoadFailed message={t('home.loadFailed')} onRetry={() => void refetch()} />
    );
  }
  const sign = signOf(data.priceRate);
  const tone = sign > 0 ? 'up' : sign < 0 ? 'down' : undefined;
  return (
    <>
      <section className="card card--hero" aria-label={t('home.totalAmount')}>
        <p className="card__label">{t('home.totalAmount')}</p>
        <p className="card__big" data-testid="total-amount">
          {formatAmount(data.totalAmount)} <span className="figure__unit">AIC</span>
        </p>
        <dl className="figures figures--row">
          <Figure label={t('home.price')} value={`$${formatFigure(data.price)}`} />
          <Figure
            label={t('home.priceRate')}
            value={data.priceRate === null ? formatFigure(null) : `${tone === 'up' ? '+' : ''}${formatFigure(data.priceRate)}%`}
            {...(tone ? { tone } : {})}
          />
        </dl>
      </section>
      <section className="card" aria-label={t('home.pools')}>
        <h2 className="card__title">{t('home.pools')}</h2>
        <dl className="figures">
          <Figure label={t('home.pool1')} value={formatAmount(data.pool1)} unit="AIC" />
          <Figure label={t('home.pool2')} value={formatAmount(data.pool2)} unit="USDT" />
          <Figure label={t('home.pool')} value={formatAmount(data.pool)} unit="AIC" />
        </dl>
      </section>
      <PlatformFigures figures={data.figures} />
      <ActivityEntry />
    </>
  );
}

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
        <Dashboard />
      ) : (
        phase !== 'signed-out' && (
          <section className="card card--empty" aria-busy="true">
            <DotLoading /> {t('home.signingIn')}
          </section>
        )
      )}
      <ProofLine />
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
        {signedIn && phase === 'ready' && <OperatorEntry />}
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
