import { ESTATE_PAGE_MESSAGES } from '../../contract/estate-bundle'
import { estateTrust, openEstateItem, readFolder, readKit, type FolderFile } from './open-estate'

// The offline page's wiring: plain DOM, so the page stays one small file (scripts/estate-page.ts inlines it).

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const kitText = $<HTMLTextAreaElement>('kit-text')
const kitFile = $<HTMLInputElement>('kit-file')
const folderInput = $<HTMLInputElement>('folder')
const filesInput = $<HTMLInputElement>('files')
const status = $<HTMLParagraphElement>('status')
const results = $<HTMLUListElement>('results')
const urls: string[] = []

function say(text: string, error = false) {
  status.textContent = text
  status.className = error ? 'status error' : 'status'
}

kitFile.addEventListener('change', async () => {
  const file = kitFile.files?.[0]
  if (!file) return
  // An Access Kit is a few kilobytes; anything much larger is not one.
  if (file.size > 64 * 1024) return say(ESTATE_PAGE_MESSAGES.kitInvalid, true)
  kitText.value = await file.text()
  say('')
})

function picked(): FolderFile[] {
  const list = [...(folderInput.files ?? []), ...(filesInput.files ?? [])]
  return list.map((f) => ({ name: f.webkitRelativePath || f.name, blob: f }))
}

$<HTMLButtonElement>('open').addEventListener('click', async () => {
  results.replaceChildren()
  for (const url of urls.splice(0)) URL.revokeObjectURL(url)
  if (!kitText.value.trim()) return say(ESTATE_PAGE_MESSAGES.kitMissing, true)
  const kit = await readKit(kitText.value)
  if (!kit) return say(ESTATE_PAGE_MESSAGES.kitInvalid, true)
  const files = picked()
  if (files.length === 0) return say(ESTATE_PAGE_MESSAGES.folderMissing, true)
  const folder = await readFolder(files)
  if (!folder.vault) return say(ESTATE_PAGE_MESSAGES.noVault, true)
  if (folder.items.length === 0) return say(ESTATE_PAGE_MESSAGES.nothing, true)
  const trust = estateTrust(kit, folder.vault)
  if (trust.kind === 'mismatch') return say(ESTATE_PAGE_MESSAGES.wrongVault, true)
  say(trust.kind === 'unchecked' ? ESTATE_PAGE_MESSAGES.uncheckedVault(folder.vault.fingerprint) : `Opening ${folder.items.length} ${folder.items.length === 1 ? 'file' : 'files'}…`)
  let opened = 0
  for (const entry of folder.items) {
    const result = await openEstateItem(kit, folder.vault, entry)
    const li = document.createElement('li')
    li.dataset.item = entry.item.itemId
    if (result.ok) {
      opened++
      const url = URL.createObjectURL(result.content)
      urls.push(url)
      const a = document.createElement('a')
      a.href = url
      a.download = result.filename
      a.textContent = `Save ${result.filename}`
      li.append(a)
    } else {
      li.className = 'refused'
      li.textContent = result.reason
    }
    results.append(li)
  }
  if (trust.kind === 'kit') say(`${opened} of ${folder.items.length} ${folder.items.length === 1 ? 'file' : 'files'} opened.`)
})
