import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatCount, formatDateTime, formatDay } from '../../lib/format.ts';
import { formatUnits } from '../../../../contract/money.ts';
import type { PublishedRoot } from '../../../../contract/proof.ts';
import { ApiError } from '../../api/client.ts';
import { fetchMyProof, usePublishedRoot } from '../../api/proof.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { Figure } from '../../components/Figure.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useSignedIn } from '../../session/store.ts';
import { checkProof, type Outcome, saveJson } from './verify.ts';
import './proof.css';

const ASSETS = ['AIC', 'USDT'] as const;
type Asset = (typeof ASSETS)[number];
/** What a check ends in: the proof's outcome, or why there was nothing to check. */
type Verdict = Outcome | { ok: false; failure: 'nothingHeld' | 'unreachable' };

function VerdictBox({ verdict }: { verdict: Verdict }) {
  const { t } = useTranslation();
  const text = verdict.ok
    ? t('proof.okText', {
        sum: formatAmount(formatUnits(verdict.sum)),
        total: formatAmount(formatUnits(verdict.total)),
        asset: verdict.asset,
        day: formatDay(verdict.day),
      })
    : t(`proof.fail.${verdict.failure}`);
  return (
    <div role="status" data-testid="proof-verdict" className={`proof-verdict proof-verdict--${verdict.ok ? 'ok' : 'failed'}`}>
      <p className="proof-verdict__title">{t(verdict.ok ? 'proof.ok' : 'proof.failed')}</p>
      <p className="proof-verdict__text">{text}</p>
    </div>
  );
}

function RootFigures({ root }: { root: PublishedRoot }) {
  const { t } = useTranslation();
  return (
    <div className="proof-root" role="group" aria-label={root.asset}>
      <h3 className="proof-root__asset">{root.asset}</h3>
      <dl className="figures">
        <Figure label={t('proof.total')} value={formatAmount(root.total)} unit={root.asset} />
        <Figure label={t('proof.holders')} value={formatCount(root.holders)} />
      </dl>
      <p className="proof-root__label">{t('proof.root')}</p>
      <code className="proof-root__hash" data-testid={`root-${root.asset}`}>
        {root.root}
      </code>
    </div>
  );
}

/** The published roots of the latest day: what every proof is checked against. */
function PublishedCard({ published }: { published: ReturnType<typeof usePublishedRoot> }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = published;
  return (
    <section className="card" aria-label={t('proof.published')}>
      <h2 className="card__title">{t('proof.published')}</h2>
      <p className="card__text proof-intro">{t('proof.intro')}</p>
      {isPending ? (
        <Skeleton.Paragraph lineCount={4} animated />
      ) : isError ? (
        <p className="card__text">{t('proof.loadFailed')}</p>
      ) : !data?.day ? (
        <p className="proof-empty" data-testid="proof-empty">
          {t('proof.none')}
        </p>
      ) : (
        <>
          <dl className="figures">
            <Figure label={t('proof.day')} value={<span data-testid="proof-day">{data.day}</span>} />
            <Figure label={t('proof.builtAt')} value={data.builtAt ? formatDateTime(data.builtAt) : ''} />
          </dl>
          {data.roots.map((root) => (
            <RootFigures key={root.asset} root={root} />
          ))}
        </>
      )}
    </section>
  );
}

/** The holder's own proof: download it, or verify it here against the published root. */
function MyProofCard() {
  const { t } = useTranslation();
  const [asset, setAsset] = useState<Asset>('AIC');
  const [busy, setBusy] = useState<'download' | 'verify' | null>(null);
  const [verdict, setVerdict] = useState<Verdict | null>(null);

  const run = async (action: 'download' | 'verify') => {
    setBusy(action);
    setVerdict(null);
    try {
      const proof = await fetchMyProof(asset);
      if (action === 'download') saveJson(`proof-${proof.day}-${proof.asset}-${proof.leaf.userId}.json`, proof);
      else setVerdict(await checkProof(proof));
    } catch (error) {
      setVerdict({ ok: false, failure: error instanceof ApiError && error.code === 404 ? 'nothingHeld' : 'unreachable' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card" aria-label={t('proof.mine')}>
      <h2 className="card__title">{t('proof.mine')}</h2>
      <ChoiceGroup label={t('proof.asset')} options={ASSETS.map((a) => ({ value: a, label: a }))} value={asset} onChange={setAsset} />
      <div className="proof-actions">
        <Button block fill="outline" loading={busy === 'download'} disabled={busy !== null} onClick={() => void run('download')}>
          {t('proof.download')}
        </Button>
        <Button block color="primary" loading={busy === 'verify'} disabled={busy !== null} onClick={() => void run('verify')}>
          {t('proof.verify')}
        </Button>
      </div>
      {verdict && <VerdictBox verdict={verdict} />}
    </section>
  );
}

/** Any proof file, checked against the root published for its day. */
function FileCard() {
  const { t } = useTranslation();
  const [verdict, setVerdict] = useState<Verdict | null>(null);

  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setVerdict(null);
    let json: unknown = null;
    try {
      json = JSON.parse(await file.text());
    } catch {
      // Not JSON: checkProof names it as no proof.
    }
    input.value = '';
    setVerdict(await checkProof(json).catch((): Verdict => ({ ok: false, failure: 'unreachable' })));
  };

  return (
    <section className="card" aria-label={t('proof.file')}>
      <h2 className="card__title">{t('proof.file')}</h2>
      <p className="card__text">{t('proof.fileHint')}</p>
      <label className="proof-file">
        <span className="proof-file__label">{t('proof.fileLabel')}</span>
        <input type="file" accept="application/json,.json" onChange={(event) => void load(event)} />
      </label>
      {verdict && <VerdictBox verdict={verdict} />}
    </section>
  );
}

/**
 * Proof of liabilities: the published root and total of the latest settled day, the holder's own
 * inclusion proof (download, verify here), and a check of any proof file, in the browser.
 */
export function ProofPage() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const published = usePublishedRoot();
  // Before the first settled day there is no proof to download, verify or check a file against.
  const noneYet = published.isSuccess && !published.data.day;
  return (
    <main className="page page--proof">
      <PageHeader title={t('proof.title')} />
      <PublishedCard published={published} />
      {published.isPending ? (
        <section className="card" aria-label={t('proof.mine')}>
          <h2 className="card__title">{t('proof.mine')}</h2>
          <Skeleton.Paragraph lineCount={3} animated />
        </section>
      ) : noneYet || !signedIn ? (
        <section className="card" aria-label={t('proof.mine')}>
          <h2 className="card__title">{t('proof.mine')}</h2>
          <p className="card__text">{t(noneYet ? 'proof.mineLater' : 'proof.signInFirst')}</p>
        </section>
      ) : (
        <MyProofCard />
      )}
      {!noneYet && <FileCard />}
    </main>
  );
}
