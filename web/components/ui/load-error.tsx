import { Alert, AlertDescription, AlertTitle } from './alert'
import { Button } from './button'

/** What a list shows when it could not be loaded: why, and a way to try again. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying,
}: {
  title: string
  message: string
  onRetry: () => void
  retrying: boolean
}) {
  return (
    <Alert variant="destructive">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{message}</p>
        <div>
          <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying...' : 'Try again'}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  )
}
