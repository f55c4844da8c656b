import { useEffect, useRef, useState } from 'react'
import type { ItemType } from '../../../../contract/vault-items'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { isAbortError } from '../items/http'
import { vaultSession } from '../vault-session'
import { uploadFile, type UploadFileInput } from './upload-file'

// The Add Item dialog's uploads: one item at a time (so memory stays at about two chunks), each
// with its own progress and status, a Cancel that aborts, and a Retry for one that failed.

export type JobStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled'

export interface UploadJob {
  id: string
  name: string
  type: ItemType
  size: number
  input: UploadFileInput
  status: JobStatus
  bytesDone: number
  error?: string
}

export interface RunResult {
  stored: number
  failed: UploadJob[]
  cancelled: boolean
  redirected: boolean
}

let nextJobId = 1

export function newJob(input: UploadFileInput): UploadJob {
  return {
    id: `upload-${nextJobId++}`,
    name: input.metadata.filename,
    type: input.type,
    size: input.content.size,
    input,
    status: 'queued',
    bytesDone: 0,
  }
}

export function jobPercent(job: Pick<UploadJob, 'status' | 'bytesDone' | 'size'>): number {
  if (job.status === 'done') return 100
  if (job.size === 0) return 0
  return Math.min(100, Math.floor((job.bytesDone / job.size) * 100))
}

export function useUploadQueue({ onStored }: { onStored: () => void }) {
  const [jobs, setJobs] = useState<UploadJob[]>([])
  const [running, setRunning] = useState(false)
  const controller = useRef<AbortController | null>(null)

  // Leaving the dialog's page stops whatever is under way (and deletes the unfinished upload).
  useEffect(() => () => controller.current?.abort(), [])

  const update = (id: string, patch: Partial<UploadJob>) =>
    setJobs((current) => current.map((job) => (job.id === id ? { ...job, ...patch } : job)))

  async function run(list: UploadJob[]): Promise<RunResult> {
    const ctrl = new AbortController()
    controller.current = ctrl
    setRunning(true)
    const result: RunResult = { stored: 0, failed: [], cancelled: false, redirected: false }
    try {
      for (const job of list) {
        if (ctrl.signal.aborted) {
          update(job.id, { status: 'cancelled' })
          continue
        }
        update(job.id, { status: 'uploading', bytesDone: 0, error: undefined })
        try {
          await uploadFile(job.input, {
            signal: ctrl.signal,
            onProgress: (bytesDone) => {
              // An upload under way is activity: the vault should not lock in the middle of it.
              vaultSession.touch()
              update(job.id, { bytesDone })
            },
          })
          update(job.id, { status: 'done', bytesDone: job.size })
          result.stored++
          onStored()
        } catch (error) {
          if (isAbortError(error)) {
            update(job.id, { status: 'cancelled' })
          } else if (error instanceof PaymentRedirectError) {
            result.redirected = true
            ctrl.abort()
          } else {
            const message = errorText(error, 'Please try again.')
            update(job.id, { status: 'failed', error: message })
            result.failed.push({ ...job, status: 'failed', error: message })
          }
        }
      }
    } finally {
      result.cancelled = ctrl.signal.aborted && !result.redirected
      if (controller.current === ctrl) controller.current = null
      setRunning(false)
    }
    return result
  }

  return {
    jobs,
    running,
    /** Replaces the queue with these jobs and uploads them in order. */
    start(list: UploadJob[]) {
      setJobs(list)
      return run(list)
    },
    retry(id: string) {
      const job = jobs.find((j) => j.id === id)
      if (!job || running) return Promise.resolve(null)
      update(id, { status: 'queued', bytesDone: 0, error: undefined })
      return run([job])
    },
    cancel() {
      controller.current?.abort()
    },
    reset() {
      controller.current?.abort()
      setJobs([])
    },
  }
}
