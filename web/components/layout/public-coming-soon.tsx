import { ComingSoon } from './coming-soon'
import { PublicLayout } from './public-layout'

export function PublicComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <PublicLayout>
      <div className="px-4 py-16">
        <ComingSoon title={title} description={description} />
      </div>
    </PublicLayout>
  )
}
