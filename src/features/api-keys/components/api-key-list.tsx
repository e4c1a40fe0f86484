import { useState } from 'react';
import { Ban } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatDate } from '@/lib/format';
import { useRevokeApiKey, type ApiKey } from '../api/api-keys';

/**
 * The keys the caller may see (their own; an admin sees every user's, marked as such), newest first,
 * each with its prefix, dates and state, and a Revoke button behind a confirmation.
 */
export function ApiKeyList({ keys, userId }: { keys: ApiKey[]; userId: string }) {
  const revoke = useRevokeApiKey();
  const [confirming, setConfirming] = useState<ApiKey | null>(null);
  if (keys.length === 0) return <p className="text-muted-foreground">No API keys yet.</p>;
  return (
    <>
      <ul className="divide-y rounded-md border" aria-label="API keys">
        {keys.map((k) => (
          <li key={k.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                <span className="truncate">{k.name}</span>
                {k.revoked_at ? (
                  <Badge variant="secondary">Revoked</Badge>
                ) : (
                  <Badge variant="outline">Active</Badge>
                )}
                {k.user_id !== userId && <Badge variant="secondary">Another user’s key</Badge>}
              </p>
              <p className="text-muted-foreground text-xs">
                <code className="font-mono">{k.prefix}…</code> · made {formatDate(k.created_at)} · last used{' '}
                {k.last_used_at ? formatDate(k.last_used_at) : 'never'}
                {k.revoked_at && ` · revoked ${formatDate(k.revoked_at)}`}
              </p>
            </div>
            {!k.revoked_at && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => setConfirming(k)}
                aria-label={`Revoke ${k.name}`}
              >
                <Ban aria-hidden />
                Revoke
              </Button>
            )}
          </li>
        ))}
      </ul>
      <Dialog open={!!confirming} onOpenChange={(open) => !open && !revoke.isPending && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Revoke this key?</DialogTitle>
            <DialogDescription>
              <strong className="break-words">{confirming?.name}</strong> (
              <code className="font-mono">{confirming?.prefix}…</code>) stops working at once: every program
              using it gets “401 This API key has been revoked”. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={revoke.isPending}>
                Keep it
              </Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={revoke.isPending}
              onClick={() =>
                confirming &&
                revoke.mutate(confirming.id, {
                  onSuccess: () => {
                    toast.success('Key revoked');
                    setConfirming(null);
                  },
                })
              }
            >
              {revoke.isPending ? 'Revoking...' : 'Revoke key'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
