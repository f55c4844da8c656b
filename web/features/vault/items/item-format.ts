import { FileText, Image, KeyRound, Video, type LucideIcon } from 'lucide-react'
import type { ItemType } from '../../../../contract/vault-items'

// How an item's clear-text facts (type, size, date) are shown.

export const ITEM_TYPE_META: Record<ItemType, { label: string; plural: string; icon: LucideIcon; tile: string }> = {
  doc: { label: 'Document', plural: 'Documents', icon: FileText, tile: 'bg-sky-100 text-sky-700' },
  photo: { label: 'Photo', plural: 'Photos', icon: Image, tile: 'bg-violet-100 text-violet-700' },
  video: { label: 'Video', plural: 'Videos', icon: Video, tile: 'bg-rose-100 text-rose-700' },
  password: { label: 'Password', plural: 'Passwords', icon: KeyRound, tile: 'bg-amber-100 text-amber-800' },
}


export function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
}
