import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  BiometricFailureBody,
  DryRunResult,
  EngineStatus,
  InactivityConfig,
  ManualReleaseBody,
  ManualReleaseResult,
  ReleaseSummary,
  Trigger,
  TriggerCreateBody,
  UnlockFailureResult,
  UnlockSuccessBody,
} from '../../../contract/triggers'
import { apiJson, sessionHeaders } from '@/lib/api-client'
import { readinessKey } from '@/features/readiness/api'
import { LIVE } from '@/lib/query-client'

// The owner's triggers and the release engine (notes/engine-api.md). Keys are the URLs, as
// everywhere in the SPA; every change refreshes the triggers and the engine status together,
// since a check-in, a toggle or a release moves both.

export const triggersKey = ['/api/triggers'] as const
export const engineStatusKey = ['/api/trigger-engine/status'] as const
export const ENGINE_STATUS_REFRESH_MS = 30_000

// Both change without this browser doing anything (alarms, approvers, the sweep), so unlike the
// rest of the SPA they are read afresh on every visit.
export const triggersQuery = queryOptions({
  queryKey: triggersKey,
  queryFn: () => apiJson<Trigger[]>('GET', '/api/triggers'),
  ...LIVE,
})

export const engineStatusQuery = queryOptions({
  queryKey: engineStatusKey,
  queryFn: () => apiJson<EngineStatus>('GET', '/api/trigger-engine/status'),
  ...LIVE,
})

export function useTriggers() {
  return useQuery(triggersQuery)
}

export function useEngineStatus(options: { poll?: boolean } = {}) {
  return useQuery({ ...engineStatusQuery, refetchInterval: options.poll ? ENGINE_STATUS_REFRESH_MS : false })
}

function useInvalidateEngine() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: triggersKey, exact: true }),
      queryClient.invalidateQueries({ queryKey: engineStatusKey, exact: true }),
      queryClient.invalidateQueries({ queryKey: readinessKey, exact: true }),
    ])
}

const path = (id: string) => encodeURIComponent(id)

export function useCreateTrigger() {
  const invalidate = useInvalidateEngine()
  return useMutation({
    mutationFn: (body: TriggerCreateBody) => apiJson<Trigger>('POST', '/api/triggers', body),
    onSuccess: invalidate,
  })
}

export function useSetTriggerStatus() {
  const invalidate = useInvalidateEngine()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'paused' }) => apiJson<Trigger>('PUT', `/api/triggers/${path(id)}`, { status }),
    // A 409 means it fired meanwhile: the refreshed list shows that too.
    onSettled: invalidate,
  })
}

/** An inactivity trigger's new schedule: the clock runs on it at once. */
export function useUpdateTriggerSchedule() {
  const invalidate = useInvalidateEngine()
  return useMutation({
    mutationFn: ({ id, config }: { id: string; config: InactivityConfig }) => apiJson<Trigger>('PUT', `/api/triggers/${path(id)}`, { config }),
    onSettled: invalidate,
  })
}

/** Sends every verified approver their link to confirm the owner's death again. */
export function useResendReportLinks() {
  return useMutation({
    mutationFn: (id: string) => apiJson<{ sent: number; message: string }>('POST', `/api/triggers/${path(id)}/resend-report-links`),
  })
}

export interface CheckInResult {
  lastCheckInAt: string
  /** Null when no check-in clock runs (no active inactivity trigger). */
  nextCheckInAt: string | null
  cancelledReleases: number
}

/** "I'm Still Here": resets the inactivity clock and cancels releases still in their delay. */
export function useCheckIn() {
  const invalidate = useInvalidateEngine()
  return useMutation({
    mutationFn: () => apiJson<CheckInResult>('POST', '/api/inactivity/ping'),
    onSuccess: invalidate,
  })
}

/** Releases nothing: what the trigger would release if it fired now. */
export function useDryRun() {
  return useMutation({
    mutationFn: (triggerId: string) => apiJson<DryRunResult>('POST', `/api/trigger-engine/dry-run/${path(triggerId)}`),
  })
}

export function useManualRelease() {
  const invalidate = useInvalidateEngine()
  return useMutation({
    mutationFn: ({ triggerId, ...body }: ManualReleaseBody & { triggerId: string }) =>
      apiJson<ManualReleaseResult>('POST', `/api/trigger-engine/manual/${path(triggerId)}`, body),
    onSettled: invalidate,
  })
}

export function useCancelRelease() {
  const invalidate = useInvalidateEngine()
  return useMutation({
    mutationFn: (releaseId: string) => apiJson<ReleaseSummary>('POST', `/api/trigger-engine/releases/${path(releaseId)}/cancel`),
    onSettled: invalidate,
  })
}

/**
 * Tells the engine about a wrong vault passphrase (Failed unlock attempts triggers) and answers
 * how many attempts are left before such a trigger starts a release (null: none is active, or the
 * report did not get through). Plain fetch, so neither a failure nor a 402 can disturb the screen
 * that reports it, and the body never carries anything but the kind.
 */
export async function reportFailedUnlock(kind: BiometricFailureBody['kind']): Promise<number | null> {
  try {
    const res = await fetch('/api/trigger-engine/biometric-failure', {
      method: 'POST',
      headers: sessionHeaders('application/json'),
      body: JSON.stringify({ kind }),
      credentials: 'include',
    })
    if (!res.ok) return null
    const body = (await res.json()) as Partial<UnlockFailureResult>
    return typeof body.attemptsLeft === 'number' ? body.attemptsLeft : null
  } catch {
    // Offline, no fetch (tests, very old browsers), or an unreadable answer: nothing to say.
    return null
  }
}

/**
 * Tells the engine the vault was unlocked: the failed attempts of the minutes before it are
 * forgiven. Fire-and-forget, like the failure report.
 */
export function reportUnlockSuccess(kind: UnlockSuccessBody['kind']): void {
  try {
    void fetch('/api/trigger-engine/unlock-success', {
      method: 'POST',
      headers: sessionHeaders('application/json'),
      body: JSON.stringify({ kind }),
      credentials: 'include',
    }).catch(() => undefined)
  } catch {
    // No fetch: nothing to report to.
  }
}
