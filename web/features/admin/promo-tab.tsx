import { Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { PROMO_TYPES } from '../../../contract/billing'
import type { AdminPromoCode } from '../../../contract/admin'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { InputField, SelectField } from '@/components/ui/form-field'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useCreatePromo, useDeletePromo, usePromoCodes } from './api'
import {
  ADMIN_COPY,
  canCreatePromo,
  canDeletePromo,
  formatDate,
  PROMO_FORM_DEFAULTS,
  PROMO_TYPE_LABELS,
  promoBody,
  promoCodeAsTyped,
  promoValueText,
  type PromoFormValues,
} from './logic'
import { EmptyState, QueryState, ScrollTable, Td, Th } from './parts'

export function PromoTab() {
  return (
    <div className="grid gap-6">
      <PromoCreateForm />
      <PromoList />
    </div>
  )
}

function PromoCreateForm() {
  const create = useCreatePromo()
  const [values, setValues] = useState<PromoFormValues>(PROMO_FORM_DEFAULTS)
  const [error, setError] = useState<string>()
  const set = <K extends keyof PromoFormValues>(key: K, value: PromoFormValues[K]) => setValues((v) => ({ ...v, [key]: value }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!canCreatePromo(values.code, create.isPending)) return
    setError(undefined)
    const body = promoBody(values)
    create.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Promo code created', description: `${body.code} is ready to use.`, variant: 'success' })
        setValues(PROMO_FORM_DEFAULTS)
      },
      onError: (e) => setError(errorText(e, 'The promo code could not be created.')),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create Promo Code</CardTitle>
        <CardDescription>Value is a percent, a dollar amount or a number of days, by type.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" noValidate aria-label="Create promo code">
          <InputField label="Code" value={values.code} onChange={(e) => set('code', promoCodeAsTyped(e.target.value))} autoComplete="off" placeholder="SPRING25" maxLength={40} />
          <InputField label="Description" value={values.description} onChange={(e) => set('description', e.target.value)} autoComplete="off" maxLength={200} />
          <SelectField label="Type" value={values.type} onChange={(e) => set('type', e.target.value as PromoFormValues['type'])}>
            {PROMO_TYPES.map((t) => (
              <option key={t} value={t}>
                {PROMO_TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
          <InputField label="Value" inputMode="numeric" value={values.value} onChange={(e) => set('value', e.target.value)} autoComplete="off" />
          <InputField label="Max uses" inputMode="numeric" value={values.maxUses} onChange={(e) => set('maxUses', e.target.value)} autoComplete="off" />
          <InputField label="Valid until" type="date" value={values.validUntil} onChange={(e) => set('validUntil', e.target.value)} />
          {error && (
            <p role="alert" className="text-sm text-red-700 sm:col-span-2 lg:col-span-3">
              {error}
            </p>
          )}
          <div className="sm:col-span-2 lg:col-span-3">
            <Button type="submit" disabled={!canCreatePromo(values.code, create.isPending)}>
              <Plus aria-hidden /> {create.isPending ? 'Creating...' : 'Create Promo Code'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

function PromoList() {
  const promos = usePromoCodes()
  const del = useDeletePromo()
  const [target, setTarget] = useState<AdminPromoCode | null>(null)

  const confirmDelete = () => {
    if (!target) return
    const code = target.code
    del.mutate(
      { id: target.id },
      {
        onSuccess: () => toast({ title: 'Promo code deleted', description: `${code} has been deleted.`, variant: 'success' }),
        onError: (e) => toast({ title: 'Delete failed', description: errorText(e, 'The promo code could not be deleted.'), variant: 'destructive' }),
        onSettled: () => setTarget(null),
      },
    )
  }

  return (
    <section aria-labelledby="promo-list-title" className="grid gap-3">
      <h2 id="promo-list-title" className="text-lg font-semibold text-slate-900">
        Promo Codes
      </h2>
      <QueryState query={promos} label="promo codes">
        {() =>
          (promos.data ?? []).length === 0 ? (
            <EmptyState>No promo codes yet.</EmptyState>
          ) : (
            <ScrollTable label="Promo code table">
              <thead>
                <tr>
                  <Th>Code</Th>
                  <Th>Type</Th>
                  <Th>Value</Th>
                  <Th>Used</Th>
                  <Th>Valid until</Th>
                  <Th>Active</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody>
                {(promos.data ?? []).map((promo) => (
                  <tr key={promo.id} data-testid="admin-promo-row">
                    <Td>
                      <div className="font-mono font-semibold">{promo.code}</div>
                      {promo.description && <div className="text-xs text-slate-500">{promo.description}</div>}
                    </Td>
                    <Td>{PROMO_TYPE_LABELS[promo.type] ?? promo.type}</Td>
                    <Td className="tabular-nums">{promoValueText(promo)}</Td>
                    <Td className="tabular-nums">
                      {promo.usedCount}/{promo.maxUses}
                    </Td>
                    <Td className="whitespace-nowrap">{promo.validUntil ? formatDate(promo.validUntil) : 'No expiry'}</Td>
                    <Td>
                      <Badge variant={promo.isActive ? 'success' : 'secondary'}>{promo.isActive ? 'Active' : 'Inactive'}</Badge>
                    </Td>
                    <Td>
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-red-700"
                        disabled={!canDeletePromo(promo)}
                        title={canDeletePromo(promo) ? undefined : 'Used codes cannot be deleted'}
                        onClick={() => setTarget(promo)}
                        aria-label={`Delete ${promo.code}`}
                      >
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </Td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          )
        }
      </QueryState>
      <ConfirmDialog
        open={!!target}
        onOpenChange={(open) => !open && !del.isPending && setTarget(null)}
        title="Delete promo code"
        description={`Delete ${target?.code ?? ''}? ${ADMIN_COPY.deleteCannotBeUndone}`}
        confirmLabel={del.isPending ? 'Deleting...' : 'Delete Code'}
        pending={del.isPending}
        onConfirm={confirmDelete}
      />
    </section>
  )
}
