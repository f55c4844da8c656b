import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, Inbox, Info, ShieldAlert, ShieldCheck } from 'lucide-react'
import { useMemo, useRef, useState } from 'react'
import { RELEASE_MESSAGES, type AssetStatus, type BeneficiaryPortalView, type ReleasedAsset } from '../../../contract/releases'
import type { PasswordEntry } from '../../../contract/vault-items'
import { PublicLayout } from '@/components/layout/public-layout'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LoadingLinkPage, RetryLinkPage } from '@/features/circle/link-page'
import type { BeneficiaryPrivateKey } from '@/crypto'
import { ApiRequestError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { assetsKey, assetsQuery, portalKey, portalQuery } from './api'
import { AssetCard } from './asset-card'
import { isBadLink } from './http'
import { IdentityPendingCard, IdentityUploadCard } from './identity-card'
import { FAILURE_FALLBACK } from './link-parts'
import { PasswordEntryDialog } from './password-dialog'
import { loadPrivateKeyFromPassphrase } from './heir-backup'
import { PrivateKeyCard } from './private-key-card'
import { RenewalCard } from './renewal-card'
import {
  assetCardModel,
  downloadErrorText,
  downloadPercent,
  downloadReleasedAsset,
  downloadsHeld,
  downloadsUsedUp,
  effectiveStatus,
  identityStep,
  loadPrivateKey,
  loadPrivateKeyFile,
  mayOpen,
  sealsAndNames,
  withCounts,
  type BeneficiaryLink,
  type CardSeal,
  type KeyResult,
} from './portal'
import { vaultTrust, type VaultTrust } from './seals'
import { HeirDownloadAll } from '@/features/export/heir-download-all'

/** What an heir can ask more of: items whose downloads or time ran out (a withdrawn one is gone). */
const RUN_OUT: ReadonlySet<AssetStatus> = new Set(['exhausted', 'expired'])

/**
 * The beneficiary portal's assets view (/beneficiary-portal?id=…&token=…&view=assets, the link in
 * the release e-mail): what was released to this beneficiary, decrypted in this browser with the
 * private key from their Access Kit.
 */
export function BeneficiaryAssetsPage({ id, token, onBack }: { id: string; token: string; onBack: () => void }) {
  const link = useMemo(() => ({ id, token }), [id, token])
  const portal = useQuery(portalQuery(link))
  const backButton = (
    <Button variant="outline" onClick={onBack} className="w-full sm:w-auto sm:justify-self-center">
      <ArrowLeft aria-hidden />
      {RELEASE_MESSAGES.backToPortal}
    </Button>
  )

  if (portal.isPending) {
    return <LoadingLinkPage label="Loading your assets" />
  }
  if (portal.isError) {
    if (isBadLink(portal.error)) return <InvalidLinkPage reason={linkErrorText(portal.error, RELEASE_MESSAGES.linkInvalid)}>{backButton}</InvalidLinkPage>
    return (
      <RetryLinkPage
        title="Your assets could not be loaded"
        description={linkErrorText(portal.error, FAILURE_FALLBACK)}
        onRetry={() => portal.refetch()}
        retrying={portal.isFetching}
      />
    )
  }
  return <Portal link={link} portal={portal.data} onBack={onBack} />
}

function Portal({ link, portal, onBack }: { link: BeneficiaryLink; portal: BeneficiaryPortalView; onBack: () => void }) {
  const queryClient = useQueryClient()
  const assets = useQuery(assetsQuery(link))
  // The key exists only here, in memory; `epoch` tells one loaded key from the next.
  const [key, setKey] = useState<{ value: BeneficiaryPrivateKey; epoch: number; vaultFingerprints: string[] } | null>(null)
  // Unsealed items the heir chose to open (an older kit only): a new key starts over.
  const [openedUnsealed, setOpenedUnsealed] = useState<ReadonlySet<string>>(new Set())
  const [keyError, setKeyError] = useState<string | null>(null)
  const keyInput = useRef<HTMLTextAreaElement>(null)
  const [busy, setBusy] = useState<{ assetId: string; progress: number | null } | null>(null)
  const [password, setPassword] = useState<{ title: string; entry: PasswordEntry } | null>(null)

  const list = assets.data ?? []
  const trust: VaultTrust | null = key && vaultTrust(key.vaultFingerprints, portal.vaultSigningKey)
  // Each item's seal is checked before its name is decrypted; one that fails is never decrypted.
  const names = useQuery({
    queryKey: ['beneficiary-asset-names', link.id, key?.epoch ?? 0, portal.vaultSigningKey, list.map((a) => a.id).join(','), [...openedUnsealed].join(',')],
    queryFn: () => sealsAndNames(list, key!.value, trust!, portal.vaultSigningKey, openedUnsealed),
    enabled: key !== null && list.length > 0,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  })
  const nameOf = (assetId: string) => (key ? names.data?.names[assetId] : null) ?? null
  const sealOf = (assetId: string): CardSeal | null => {
    const verdict = key && trust && names.data?.verdicts[assetId]
    return verdict ? { verdict, trust: trust!, opened: openedUnsealed.has(assetId) } : null
  }

  const applyKey = (result: KeyResult): boolean => {
    if (!result.ok) {
      setKeyError(result.error)
      return false
    }
    setKey((previous) => ({ value: result.key, epoch: (previous?.epoch ?? 0) + 1, vaultFingerprints: result.vaultFingerprints }))
    setOpenedUnsealed(new Set())
    setKeyError(null)
    return true
  }

  const step = identityStep(portal, list)

  async function download(asset: ReleasedAsset) {
    if (!key) {
      setKeyError(RELEASE_MESSAGES.privateKeyRequired)
      keyInput.current?.focus()
      return
    }
    const seal = sealOf(asset.id)
    // Nothing is decrypted before its seal is known and allows it.
    if (!seal || !mayOpen(seal)) return
    setBusy({ assetId: asset.id, progress: null })
    try {
      const outcome = await downloadReleasedAsset(link, asset, key.value, {
        seal: seal.verdict.state === 'sealed' ? seal.verdict.manifest : undefined,
        onProgress: (received, total) => setBusy({ assetId: asset.id, progress: downloadPercent(received, total) }),
        onCounted: (counts) => {
          queryClient.setQueryData<ReleasedAsset[]>(assetsKey(link), (old) => old && withCounts(old, asset.id, counts))
          // The last download: the page now offers to ask for more.
          if (downloadsUsedUp(counts)) void queryClient.invalidateQueries({ queryKey: portalKey(link) })
        },
      })
      if (outcome.kind === 'password') setPassword({ title: outcome.title, entry: outcome.entry })
      else if (outcome.kind === 'saved') toast({ title: 'Download complete', description: `${outcome.filename} was decrypted and saved.`, variant: 'success' })
    } catch (error) {
      toast({ title: RELEASE_MESSAGES.downloadFailed, description: downloadErrorText(error, portal.ownerName), variant: 'destructive' })
      // Refused (limit, expiry, identity): the list catches up with the server's view.
      if (error instanceof ApiRequestError) {
        void queryClient.invalidateQueries({ queryKey: assetsKey(link) })
        void queryClient.invalidateQueries({ queryKey: portalKey(link) })
      }
    } finally {
      setBusy(null)
    }
  }

  return (
    <PublicLayout>
      <div className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-8 sm:py-12">
        <div className="mx-auto grid w-full max-w-4xl gap-6">
          <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-start sm:justify-between sm:p-6">
            <div className="grid gap-1">
              <h1 className="text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">Released Assets</h1>
              <p className="text-sm leading-relaxed text-slate-600">
                {portal.fullName ? `${portal.fullName}, these` : 'These'} are the items {portal.ownerName} left to you. Each is decrypted
                in this browser with the private key from your Access Kit.
              </p>
            </div>
            <Button variant="outline" onClick={onBack} className="shrink-0">
              <ArrowLeft aria-hidden />
              {RELEASE_MESSAGES.backToPortal}
            </Button>
          </Card>

          {step !== 'none' && !portal.reviewerReady && (
            <Alert variant="info" data-testid="no-reviewer-yet">
              <Info aria-hidden />
              <AlertDescription>{RELEASE_MESSAGES.noReviewerYet(portal.ownerName)}</AlertDescription>
            </Alert>
          )}
          {step === 'pending' && <IdentityPendingCard />}
          {step === 'upload' && (
            <IdentityUploadCard
              link={link}
              rejected={portal.identityStatus === 'rejected'}
              accepted={portal.acceptedDocumentTypes ?? null}
              rejectionReason={portal.rejectionReason ?? null}
              onUploaded={() => queryClient.setQueryData<BeneficiaryPortalView>(portalKey(link), (old) => old && { ...old, identityStatus: 'pending' })}
            />
          )}

          <RenewalCard
            link={link}
            renewal={portal.renewal}
            itemCount={list.filter((a) => RUN_OUT.has(effectiveStatus(a))).length}
            onAsked={(renewal) => queryClient.setQueryData<BeneficiaryPortalView>(portalKey(link), (old) => old && { ...old, renewal })}
          />

          <PrivateKeyCard
            ref={keyInput}
            loaded={key !== null}
            error={keyError}
            mismatch={!!names.data?.mismatch}
            disabled={busy !== null}
            onText={async (text) => applyKey(await loadPrivateKey(text))}
            onFile={async (file) => applyKey(await loadPrivateKeyFile(file))}
            onForget={() => setKey(null)}
            onPassphrase={async (passphrase) => applyKey(await loadPrivateKeyFromPassphrase(link, passphrase))}
          />

          {trust && list.length > 0 && <VaultTrustNotice trust={trust} ownerName={portal.ownerName} />}

          {list.length > 0 && (
            <HeirDownloadAll
              link={link}
              privateKey={key?.value ?? null}
              assets={list}
              ready={!!names.data}
              disabled={busy !== null}
              sealOf={sealOf}
              nameOf={nameOf}
              ownerName={portal.ownerName}
              onCounted={(assetId, counts) => queryClient.setQueryData<ReleasedAsset[]>(assetsKey(link), (old) => old && withCounts(old, assetId, counts))}
            />
          )}

          {assets.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner className="size-7" label="Loading your assets" />
            </div>
          ) : assets.isError ? (
            <Card className="grid justify-items-center gap-3 p-6 text-center">
              <p className="text-sm text-slate-700">{linkErrorText(assets.error, FAILURE_FALLBACK)}</p>
              <Button variant="outline" onClick={() => assets.refetch()} disabled={assets.isFetching}>
                {assets.isFetching ? 'Retrying...' : 'Try again'}
              </Button>
            </Card>
          ) : list.length === 0 ? (
            <Card className="grid justify-items-center gap-2 p-10 text-center">
              <Inbox className="size-10 text-slate-400" aria-hidden />
              <h2 className="text-lg font-semibold text-slate-900">{RELEASE_MESSAGES.noAssets}</h2>
              <p className="max-w-md text-sm text-slate-600">{RELEASE_MESSAGES.noAssetsBody}</p>
            </Card>
          ) : (
            <section aria-label="Released assets" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {list.map((asset) => (
                <AssetCard
                  key={asset.id}
                  model={assetCardModel(asset, {
                    name: nameOf(asset.id),
                    // With a key loaded, nothing opens until its seal has been checked.
                    busy: downloadsHeld({ downloading: busy !== null, keyLoaded: key !== null, sealsChecked: !!names.data }),
                    ownerName: portal.ownerName,
                    seal: sealOf(asset.id),
                    keyFits: !names.data?.mismatch,
                  })}
                  busy={busy?.assetId === asset.id}
                  progress={busy?.assetId === asset.id ? busy.progress : null}
                  onDownload={() => void download(asset)}
                  onOpenUnsealed={() => setOpenedUnsealed((opened) => new Set(opened).add(asset.id))}
                />
              ))}
            </section>
          )}
        </div>
      </div>
      <PasswordEntryDialog entry={password?.entry ?? null} title={password?.title ?? ''} onClose={() => setPassword(null)} />
    </PublicLayout>
  )
}

/** What the heir's kit lets them trust, above the items: a match, a mismatch, or a fingerprint to compare (an older kit). */
function VaultTrustNotice({ trust, ownerName }: { trust: VaultTrust; ownerName: string }) {
  if (trust.kind === 'kit') {
    return (
      <Alert variant="success" data-testid="vault-trust">
        <ShieldCheck aria-hidden />
        <AlertDescription>{RELEASE_MESSAGES.vaultKeyMatched(ownerName)}</AlertDescription>
      </Alert>
    )
  }
  if (trust.kind === 'mismatch') {
    return (
      <Alert variant="destructive" data-testid="vault-trust">
        <ShieldAlert aria-hidden />
        <AlertTitle>{RELEASE_MESSAGES.vaultKeyMismatchTitle}</AlertTitle>
        <AlertDescription>{RELEASE_MESSAGES.vaultKeyMismatch(ownerName)}</AlertDescription>
      </Alert>
    )
  }
  return (
    <Alert variant="warning" data-testid="vault-trust">
      <ShieldAlert aria-hidden />
      <AlertTitle>{RELEASE_MESSAGES.oldKitTitle}</AlertTitle>
      <AlertDescription className="grid gap-2">
        {trust.fingerprint ? (
          <>
            <p>{RELEASE_MESSAGES.oldKit(ownerName)}</p>
            <p>
              <span className="font-medium">Vault fingerprint of {ownerName}’s vault: </span>
              <span className="break-all font-mono" data-testid="vault-fingerprint">
                {trust.fingerprint}
              </span>
            </p>
          </>
        ) : (
          <p>{RELEASE_MESSAGES.oldKitNoVaultKey(ownerName)}</p>
        )}
      </AlertDescription>
    </Alert>
  )
}
