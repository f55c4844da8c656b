import { createFileRoute, Outlet } from '@tanstack/react-router'
import { Protected } from '@/components/layout/protected'

// Every protected page (seeds 000 §2) renders inside this layout: guard, then the signed-in shell.
export const Route = createFileRoute('/_app')({
  component: () => <Protected>{() => <Outlet />}</Protected>,
})
