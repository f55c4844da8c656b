import { CloudUpload, FileText, Image, KeyRound, Video, type LucideIcon } from 'lucide-react'
import { useRef, useState, type DragEvent } from 'react'
import { MAX_FILE_BYTES, MAX_FILES_PER_DROP, VAULT_ITEM_MESSAGES } from '../../../../contract/vault-items'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { acceptAttribute, dragVerdict, type FileCategory } from './file-rules'

// The Add Item dropzone (seeds 001 §2 'Upload dropzone'): drag and drop or browse, four
// categories, and idle / drag-accept / drag-reject states. Keyboard users reach everything through
// buttons; the file input itself is visually hidden.

type DragState = 'idle' | 'accept' | 'reject'

const CATEGORIES: { id: FileCategory | 'password'; label: string; hint: string; icon: LucideIcon; tile: string }[] = [
  { id: 'doc', label: 'Documents', hint: 'PDF, Office, text, any other file', icon: FileText, tile: 'text-sky-700 bg-sky-50' },
  { id: 'photo', label: 'Photos', hint: 'JPG, PNG, GIF, WebP', icon: Image, tile: 'text-violet-700 bg-violet-50' },
  { id: 'video', label: 'Videos', hint: 'MP4, MOV, WebM', icon: Video, tile: 'text-rose-700 bg-rose-50' },
  { id: 'password', label: 'Passwords', hint: 'Logins and notes', icon: KeyRound, tile: 'text-amber-800 bg-amber-50' },
]

export function Dropzone({
  selectedCount,
  onFiles,
  onPasswords,
  disabled = false,
  describedBy,
  invalid = false,
}: {
  selectedCount: number
  onFiles: (files: File[]) => void
  onPasswords: () => void
  disabled?: boolean
  describedBy?: string
  invalid?: boolean
}) {
  const inputRef = useRef<HTMLInputElement>(null)
  const depth = useRef(0)
  const [drag, setDrag] = useState<DragState>('idle')

  function browse(category?: FileCategory) {
    const input = inputRef.current
    if (!input || disabled) return
    input.accept = acceptAttribute(category)
    input.click()
  }

  function verdictOf(event: DragEvent): DragState {
    const items = Array.from(event.dataTransfer?.items ?? [], (item) => ({ kind: item.kind, type: item.type }))
    return dragVerdict(items, selectedCount)
  }

  const dragHandlers = disabled
    ? {}
    : {
        onDragEnter: (event: DragEvent) => {
          event.preventDefault()
          depth.current++
          setDrag(verdictOf(event))
        },
        onDragOver: (event: DragEvent) => {
          event.preventDefault()
          event.dataTransfer.dropEffect = drag === 'reject' ? 'none' : 'copy'
        },
        onDragLeave: () => {
          depth.current = Math.max(0, depth.current - 1)
          if (depth.current === 0) setDrag('idle')
        },
        onDrop: (event: DragEvent) => {
          event.preventDefault()
          depth.current = 0
          setDrag('idle')
          const files = Array.from(event.dataTransfer.files)
          if (files.length) onFiles(files)
        },
      }

  return (
    <div className="grid gap-3">
      <div role="group" aria-label="Categories" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {CATEGORIES.map((category) => {
          const Icon = category.icon
          return (
            <button
              key={category.id}
              type="button"
              disabled={disabled}
              onClick={() => (category.id === 'password' ? onPasswords() : browse(category.id))}
              className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-2.5 text-left transition-colors sm:flex-col sm:gap-1.5 sm:p-3 sm:text-center hover:border-brand-300 hover:bg-brand-50/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50"
            >
              <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-md', category.tile)} aria-hidden>
                <Icon className="size-4" />
              </span>
              <span className="grid min-w-0 sm:justify-items-center">
                <span className="text-sm font-medium text-slate-900">{category.label}</span>
                <span className="text-xs leading-snug text-slate-500">{category.hint}</span>
              </span>
            </button>
          )
        })}
      </div>
      <div
        data-testid="dropzone"
        data-state={drag}
        {...dragHandlers}
        onClick={(event) => {
          if (!(event.target as HTMLElement).closest('button, input')) browse()
        }}
        className={cn(
          'grid cursor-pointer justify-items-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors sm:py-8',
          drag === 'idle' && (invalid ? 'border-red-300 bg-white' : 'border-slate-300 bg-slate-50 hover:border-brand-400'),
          drag === 'accept' && 'border-brand-500 bg-brand-50',
          drag === 'reject' && 'border-red-500 bg-red-50',
          disabled && 'pointer-events-none opacity-60',
        )}
      >
        <CloudUpload
          className={cn('size-9', drag === 'reject' ? 'text-red-500' : drag === 'accept' ? 'text-brand-600' : 'text-slate-400')}
          aria-hidden
        />
        <p className={cn('text-sm font-medium', drag === 'reject' ? 'text-red-700' : 'text-slate-800')} aria-live="polite">
          {drag === 'reject'
            ? VAULT_ITEM_MESSAGES.tooManyFiles
            : drag === 'accept'
              ? 'Drop to add these files'
              : 'Drag and drop files here'}
        </p>
        <Button variant="outline" size="sm" onClick={() => browse()} disabled={disabled} aria-describedby={describedBy}>
          Browse files
        </Button>
        <p className="text-xs text-slate-500">
          Up to {MAX_FILES_PER_DROP} files, {MAX_FILE_BYTES / 1048576} MB each, of any type. Photos and videos are shown as
          such; everything else is kept as a document.
        </p>
        <input
          ref={inputRef}
          type="file"
          multiple
          className="sr-only"
          tabIndex={-1}
          aria-label="Choose files to upload"
          data-testid="file-input"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? [])
            event.target.value = ''
            event.target.accept = acceptAttribute()
            if (files.length) onFiles(files)
          }}
        />
      </div>
    </div>
  )
}
