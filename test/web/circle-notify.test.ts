import { afterEach, describe, expect, it } from 'vitest'
import { ApiRequestError, PaymentRedirectError } from '@/lib/api-client'
import { dismissToast, getCurrentToast } from '@/lib/toast-store'
import { CIRCLE_TOASTS } from '@/features/circle/copy'
import { toastFailure, toastSuccess } from '@/features/circle/notify'

// The toasts of the owner's actions on beneficiaries, approvers and identity documents.

afterEach(() => {
  const current = getCurrentToast()
  if (current) dismissToast(current.id)
})

describe('the toast of a failed owner action', () => {
  it('shows the spec title and the server words, as an error', () => {
    toastFailure('Failed to add beneficiary', new ApiRequestError(402, 'Your plan allows 2 beneficiaries.', {}))
    expect(getCurrentToast()).toMatchObject({ title: 'Failed to add beneficiary', description: 'Your plan allows 2 beneficiaries.', variant: 'destructive' })
  })

  it('falls back to the fixed words when the failure has none', () => {
    toastFailure('Failed to add beneficiary', undefined)
    expect(getCurrentToast()).toMatchObject({ description: CIRCLE_TOASTS.fallback, variant: 'destructive' })
  })

  it('says nothing while the browser is on its way to /subscribe', () => {
    toastFailure('Failed to add beneficiary', new PaymentRedirectError())
    expect(getCurrentToast()).toBeNull()
  })

  it('a success is shown as a success', () => {
    toastSuccess('Beneficiary added', 'Ada will receive a verification e-mail.')
    expect(getCurrentToast()).toMatchObject({ title: 'Beneficiary added', description: 'Ada will receive a verification e-mail.', variant: 'success' })
  })
})
