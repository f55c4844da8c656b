import { FileKey } from 'lucide-react'
import { useRef } from 'react'
import type { ComponentProps } from 'react'
import { Button } from '@/components/ui/button'

/** What the file picker offers: the kit's text file, or a key file. */
export const KIT_FILE_ACCEPT = '.txt,.pem,.key,text/plain'

/**
 * "Load Access Kit file": a button that opens the file picker (the input itself is hidden and out
 * of the tab order; the button is what a keyboard reaches). `onFile` gets the chosen file, and the
 * input is cleared so choosing the same file again fires again.
 */
export function KitFileButton({ onFile, ...button }: { onFile: (file: File) => void } & Omit<ComponentProps<typeof Button>, 'onClick' | 'children'>) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={KIT_FILE_ACCEPT}
        className="hidden"
        aria-hidden
        tabIndex={-1}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0]
          event.currentTarget.value = ''
          if (chosen) onFile(chosen)
        }}
      />
      <Button variant="outline" {...button} onClick={() => input.current?.click()}>
        <FileKey aria-hidden />
        Load Access Kit file
      </Button>
    </>
  )
}
