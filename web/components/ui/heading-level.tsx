import { createContext, useContext, type ComponentProps, type ReactNode } from 'react'

// The level of a heading that sits where it is used, so that headings never skip a level (a
// page's h1, its cards' and alerts' h2, what is inside a card's content h3, and so on). Page
// titles keep their own h1; a dialog's title is h2 and what it holds starts at h3.

const HeadingLevel = createContext(2)

export type Level = 1 | 2 | 3 | 4 | 5 | 6

export function useHeadingLevel(): Level {
  return Math.min(6, useContext(HeadingLevel)) as Level
}

/** What it holds is one level below the headings beside it. */
export function NestedHeadings({ children }: { children: ReactNode }) {
  return <HeadingLevel.Provider value={useContext(HeadingLevel) + 1}>{children}</HeadingLevel.Provider>
}

/** What it holds starts at `level` (a dialog's content: 3, under its h2 title). */
export function HeadingsFrom({ level, children }: { level: Level; children: ReactNode }) {
  return <HeadingLevel.Provider value={level}>{children}</HeadingLevel.Provider>
}

/** A heading at the level of where it is. */
export function Heading(props: ComponentProps<'h2'>) {
  const Tag = `h${useHeadingLevel()}` as const
  return <Tag {...props} />
}
